<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<kafkybot-results>
  <tuples source="doc11015-0.kaf">
    <tuple id="1" profile="patient-2" profileConfidence="x" sentenceId="s0">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t42" tokens="w42"/>
      <participant lemma="firefighter" role="patient" tokens="w45"/>
      <participant lemma="firefighter" role="patient" tokens="w46"/>
      <participant lemma="firefighter" role="done-by" tokens="w47"/>
    </tuple>
    <tuple id="2" profile="agent-1-sem" profileConfidence="0" sentenceId="s1">
      <!--a comment-->
      <event lemma="die" mention="t24" tokens="w24"/>
      <participant lemma="firefighter" role="patient" tokens="w27;w28"/>
      <participant lemma="firefighter" role="patient" tokens="w28;w29"/>
      <participant lemma="firefighter" tokens="w29;w30"/>
    </tuple>
    <tuple id="3" profile="agent-1-sem" profileConfidence="0" sentenceId="s2">
      <!--a comment-->
      <event lemma="respond" mention="t28" tokens="w28"/>
      <participant lemma="bus" role="done-by" tokens="w31;w32"/>
      <participant lemma="firefighter" role="done-by" tokens="w32"/>
      <participant lemma="bus" role="done-by" tokens="w33"/>
    </tuple>
    <tuple id="4" profile="agent-1-sem" profileConfidence="30" sentenceId="s3">
      <!--a comment-->
      <event lemma="die" mention="t9" tokens="w9"/>
      <participant lemma="firefighter" tokens="w12"/>
      <participant lemma="bus" tokens="w13"/>
      <participant lemma="firefighter" role="agent" tokens="w14;w15"/>
    </tuple>
    <tuple id="5" profile="agent-1-sem" profileConfidence="0" sentenceId="s4">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t50" tokens="w50"/>
      <event lemma="go" tokens="w51;w52"/>
      <participant lemma="bus" role="done-by" tokens="w53"/>
    </tuple>
    <tuple id="6" profile="patient-2" profileConfidence="x" sentenceId="s5">
      <!--a comment-->
      <event lemma="die" mention="t26" tokens="w26"/>
      <participant lemma="bus" role="patient" tokens="w29;w30"/>
      <participant lemma="bus" tokens="w30;w31"/>
    </tuple>
  </tuples>
  <tuples source="doc11015-1.kaf">
    <tuple id="1" profile="patient-2" profileConfidence="30" sentenceId="s0">
      <!--a comment-->
      <event lemma="respond" mention="t12" tokens="w12"/>
      <participant lemma="bus" role="agent" tokens="w15;w16"/>
      <participant lemma="firefighter" tokens="w16"/>
    </tuple>
    <tuple id="2" profile="agent-1-sem" profileConfidence="30" sentenceId="s1">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t36" tokens="w36"/>
      <event lemma="go" tokens="w37;w38"/>
      <participant lemma="firefighter" role="patient" tokens="w39;w40"/>
    </tuple>
  </tuples>
</kafkybot-results>
