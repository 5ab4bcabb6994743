<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<kafkybot-results>
  <tuples source="doc11007-0.kaf">
    <tuple id="1" profile="patient-2" profileConfidence="0" sentenceId="s0">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t7" tokens="w7"/>
      <event lemma="go" tokens="w8;w9"/>
      <participant lemma="firefighter" tokens="w10"/>
      <participant lemma="firefighter" role="agent" tokens="w11;w12"/>
      <participant lemma="bus" role="done-by" tokens="w12"/>
    </tuple>
    <tuple id="2" profile="agent-1-sem" profileConfidence="75" sentenceId="s1">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t21" tokens="w21"/>
      <participant lemma="firefighter" role="done-by" tokens="w24;w25"/>
      <participant lemma="bus" role="done-by" tokens="w25;w26"/>
    </tuple>
    <tuple id="3" profile="agent-1-sem" profileConfidence="30" sentenceId="s2">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t26" tokens="w26"/>
      <participant lemma="firefighter" tokens="w29"/>
    </tuple>
    <tuple id="4" profile="patient-2" profileConfidence="30" sentenceId="s3">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t16" tokens="w16"/>
      <participant lemma="bus" role="agent" tokens="w19"/>
      <participant lemma="firefighter" role="done-by" tokens="w20;w21"/>
    </tuple>
    <tuple id="5" profile="patient-2" profileConfidence="x" sentenceId="s4">
      <!--a comment-->
      <event lemma="die" mention="t1" tokens="w1"/>
      <participant lemma="bus" role="done-by" tokens="w4"/>
    </tuple>
    <tuple id="6" profile="agent-1-sem" profileConfidence="x" sentenceId="s5">
      <!--a comment-->
      <event lemma="respond" mention="t18" tokens="w18"/>
      <participant lemma="bus" role="agent" tokens="w21;w22"/>
      <participant lemma="firefighter" role="done-by" tokens="w22;w23"/>
      <participant lemma="firefighter" role="agent" tokens="w23"/>
    </tuple>
  </tuples>
  <tuples source="doc11007-1.kaf">
    <tuple id="1" profile="patient-2" profileConfidence="30" sentenceId="s0">
      <!--a comment-->
      <event lemma="die" mention="t8" tokens="w8"/>
      <participant lemma="firefighter" tokens="w11;w12"/>
    </tuple>
    <tuple id="2" profile="patient-2" profileConfidence="75" sentenceId="s1">
      <!--a comment-->
      <event lemma="die" mention="t36" tokens="w36"/>
      <event lemma="go" tokens="w37;w38"/>
      <participant lemma="firefighter" role="patient" tokens="w39"/>
    </tuple>
    <tuple id="3" profile="agent-1-sem" profileConfidence="30" sentenceId="s2">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t39" tokens="w39"/>
      <participant lemma="firefighter" tokens="w42;w43"/>
    </tuple>
  </tuples>
</kafkybot-results>
