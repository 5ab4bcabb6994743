<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<kafkybot-results>
  <tuples source="doc11010-0.kaf">
    <tuple id="1" profile="patient-2" profileConfidence="0" sentenceId="s0">
      <!--a comment-->
      <event lemma="respond" mention="t17" tokens="w17"/>
      <participant lemma="firefighter" role="patient" tokens="w20;w21"/>
    </tuple>
    <tuple id="2" profile="patient-2" profileConfidence="0" sentenceId="s1">
      <!--a comment-->
      <event lemma="respond" mention="t50" tokens="w50"/>
      <participant lemma="bus" tokens="w53;w54"/>
      <participant lemma="bus" role="done-by" tokens="w54"/>
      <participant lemma="firefighter" role="done-by" tokens="w55"/>
    </tuple>
    <tuple id="3" profile="agent-1-sem" profileConfidence="75" sentenceId="s2">
      <!--a comment-->
      <event lemma="respond" mention="t7" tokens="w7"/>
      <participant lemma="firefighter" role="patient" tokens="w10;w11"/>
    </tuple>
  </tuples>
  <tuples source="doc11010-1.kaf">
    <tuple id="1" profile="patient-2" profileConfidence="x" sentenceId="s0">
      <!--a comment-->
      <event lemma="respond" mention="t26" tokens="w26"/>
      <participant lemma="firefighter" role="done-by" tokens="w29;w30"/>
      <participant lemma="bus" role="agent" tokens="w30"/>
    </tuple>
    <tuple id="2" profile="agent-1-sem" profileConfidence="75" sentenceId="s1">
      <!--a comment-->
      <event lemma="respond" mention="t44" tokens="w44"/>
      <participant lemma="firefighter" role="patient" tokens="w47"/>
      <participant lemma="firefighter" tokens="w48"/>
      <participant lemma="firefighter" role="done-by" tokens="w49;w50"/>
    </tuple>
    <tuple id="3" profile="agent-1-sem" profileConfidence="0" sentenceId="s2">
      <!--a comment-->
      <event lemma="die" mention="t27" tokens="w27"/>
      <participant lemma="firefighter" tokens="w30"/>
    </tuple>
  </tuples>
</kafkybot-results>
