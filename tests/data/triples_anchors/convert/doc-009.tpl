<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<kafkybot-results>
  <tuples source="doc11009-0.kaf">
    <tuple id="1" profile="patient-2" profileConfidence="75" sentenceId="s0">
      <!--a comment-->
      <event lemma="respond" mention="t39" tokens="w39"/>
      <participant lemma="bus" role="done-by" tokens="w42;w43"/>
    </tuple>
    <tuple id="2" profile="agent-1-sem" profileConfidence="75" sentenceId="s1">
      <!--a comment-->
      <event lemma="respond" mention="t47" tokens="w47"/>
      <participant lemma="bus" role="agent" tokens="w50;w51"/>
      <participant lemma="firefighter" role="done-by" tokens="w51;w52"/>
      <participant lemma="firefighter" role="done-by" tokens="w52;w53"/>
    </tuple>
  </tuples>
</kafkybot-results>
