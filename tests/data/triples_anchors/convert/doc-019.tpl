<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<kafkybot-results>
  <tuples source="doc11019-0.kaf">
    <tuple id="1" profile="agent-1-sem" profileConfidence="x" sentenceId="s0">
      <!--a comment-->
      <event lemma="respond" mention="t8" tokens="w8"/>
      <participant lemma="firefighter" role="agent" tokens="w11"/>
      <participant lemma="bus" role="done-by" tokens="w12;w13"/>
    </tuple>
  </tuples>
</kafkybot-results>
