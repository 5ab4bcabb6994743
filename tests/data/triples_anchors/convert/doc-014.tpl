<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<kafkybot-results>
  <tuples source="doc11014-0.kaf">
    <tuple id="1" profile="patient-2" profileConfidence="0" sentenceId="s0">
      <!--a comment-->
      <event lemma="respond" mention="t39" tokens="w39"/>
      <participant lemma="bus" tokens="w42"/>
      <participant lemma="bus" role="patient" tokens="w43;w44"/>
    </tuple>
    <tuple id="2" profile="agent-1-sem" profileConfidence="x" sentenceId="s1">
      <!--a comment-->
      <event lemma="die" mention="t28" tokens="w28"/>
      <participant lemma="firefighter" role="patient" tokens="w31;w32"/>
      <participant lemma="firefighter" role="done-by" tokens="w32;w33"/>
      <participant lemma="bus" role="agent" tokens="w33"/>
    </tuple>
    <tuple id="3" profile="agent-1-sem" profileConfidence="x" sentenceId="s2">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t12" tokens="w12"/>
      <event lemma="go" tokens="w13;w14"/>
      <participant lemma="firefighter" role="agent" tokens="w15;w16"/>
      <participant lemma="firefighter" role="agent" tokens="w16;w17"/>
    </tuple>
  </tuples>
</kafkybot-results>
