<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<kafkybot-results>
  <tuples source="doc11008-0.kaf">
    <tuple id="1" profile="agent-1-sem" profileConfidence="30" sentenceId="s0">
      <!--a comment-->
      <event lemma="die" mention="t1" tokens="w1"/>
      <participant lemma="bus" role="agent" tokens="w4;w5"/>
      <participant lemma="bus" tokens="w5"/>
      <participant lemma="bus" tokens="w6;w7"/>
    </tuple>
  </tuples>
  <tuples source="doc11008-1.kaf">
    <tuple id="1" profile="patient-2" profileConfidence="x" sentenceId="s0">
      <!--a comment-->
      <event lemma="respond" mention="t26" tokens="w26"/>
      <participant lemma="bus" role="done-by" tokens="w29"/>
      <participant lemma="firefighter" tokens="w30;w31"/>
      <participant lemma="firefighter" tokens="w31"/>
    </tuple>
  </tuples>
</kafkybot-results>
