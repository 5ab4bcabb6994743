"""What every task's reports share (cells), and the reports of compare and sweep (tables, plots)."""
