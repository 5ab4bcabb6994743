<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<kafkybot-results>
  <tuples source="doc11005-0.kaf">
    <tuple id="1" profile="agent-1-sem" profileConfidence="x" sentenceId="s0">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t43" tokens="w43"/>
      <participant lemma="bus" role="agent" tokens="w46;w47"/>
      <participant lemma="bus" role="done-by" tokens="w47;w48"/>
    </tuple>
    <tuple id="2" profile="patient-2" profileConfidence="30" sentenceId="s1">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t9" tokens="w9"/>
      <participant lemma="firefighter" tokens="w12;w13"/>
    </tuple>
    <tuple id="3" profile="patient-2" profileConfidence="75" sentenceId="s2">
      <!--a comment-->
      <event lemma="die" mention="t23" tokens="w23"/>
      <participant lemma="bus" role="done-by" tokens="w26;w27"/>
      <participant lemma="bus" tokens="w27;w28"/>
    </tuple>
    <tuple id="4" profile="agent-1-sem" profileConfidence="x" sentenceId="s3">
      <!--a comment-->
      <event lemma="die" mention="t4" tokens="w4"/>
      <event lemma="go" tokens="w5;w6"/>
      <participant lemma="firefighter" role="done-by" tokens="w7;w8"/>
    </tuple>
    <tuple id="5" profile="agent-1-sem" profileConfidence="75" sentenceId="s4">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t26" tokens="w26"/>
      <participant lemma="firefighter" tokens="w29;w30"/>
    </tuple>
    <tuple id="6" profile="patient-2" profileConfidence="30" sentenceId="s5">
      <!--a comment-->
      <event lemma="respond" mention="t32" tokens="w32"/>
      <participant lemma="bus" role="done-by" tokens="w35;w36"/>
      <participant lemma="firefighter" tokens="w36"/>
      <participant lemma="bus" tokens="w37"/>
    </tuple>
  </tuples>
</kafkybot-results>
