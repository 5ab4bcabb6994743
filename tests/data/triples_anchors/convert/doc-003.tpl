<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<kafkybot-results>
  <tuples source="doc11003-0.kaf">
    <tuple id="1" profile="agent-1-sem" profileConfidence="0" sentenceId="s0">
      <!--a comment-->
      <event lemma="respond" mention="t32" tokens="w32"/>
      <participant lemma="firefighter" role="agent" tokens="w35;w36"/>
      <participant lemma="firefighter" tokens="w36;w37"/>
      <participant lemma="bus" role="agent" tokens="w37"/>
    </tuple>
    <tuple id="2" profile="agent-1-sem" profileConfidence="75" sentenceId="s1">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t29" tokens="w29"/>
      <participant lemma="firefighter" role="done-by" tokens="w32;w33"/>
      <participant lemma="firefighter" role="patient" tokens="w33"/>
    </tuple>
    <tuple id="3" profile="patient-2" profileConfidence="x" sentenceId="s2">
      <!--a comment-->
      <event lemma="respond" mention="t45" tokens="w45"/>
      <participant lemma="firefighter" role="patient" tokens="w48"/>
      <participant lemma="bus" role="agent" tokens="w49;w50"/>
      <participant lemma="bus" role="patient" tokens="w50"/>
    </tuple>
  </tuples>
</kafkybot-results>
