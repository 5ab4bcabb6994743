<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<kafkybot-results>
  <tuples source="doc11016-0.kaf">
    <tuple id="1" profile="patient-2" profileConfidence="0" sentenceId="s0">
      <!--a comment-->
      <event lemma="die" mention="t10" tokens="w10"/>
      <participant lemma="bus" role="patient" tokens="w13"/>
      <participant lemma="bus" role="agent" tokens="w14"/>
      <participant lemma="firefighter" role="patient" tokens="w15;w16"/>
    </tuple>
    <tuple id="2" profile="patient-2" profileConfidence="0" sentenceId="s1">
      <!--a comment-->
      <event lemma="die" mention="t36" tokens="w36"/>
      <participant lemma="firefighter" role="done-by" tokens="w39"/>
      <participant lemma="firefighter" role="done-by" tokens="w40"/>
      <participant lemma="bus" role="patient" tokens="w41"/>
    </tuple>
    <tuple id="3" profile="agent-1-sem" profileConfidence="75" sentenceId="s2">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t48" tokens="w48"/>
      <participant lemma="firefighter" role="done-by" tokens="w51;w52"/>
      <participant lemma="bus" role="patient" tokens="w52"/>
    </tuple>
    <tuple id="4" profile="agent-1-sem" profileConfidence="0" sentenceId="s3">
      <!--a comment-->
      <event lemma="die" mention="t25" tokens="w25"/>
      <participant lemma="bus" role="done-by" tokens="w28"/>
    </tuple>
  </tuples>
</kafkybot-results>
