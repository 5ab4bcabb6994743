<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<kafkybot-results>
  <tuples source="doc11011-0.kaf">
    <tuple id="1" profile="agent-1-sem" profileConfidence="0" sentenceId="s0">
      <!--a comment-->
      <event lemma="die" mention="t12" tokens="w12"/>
      <participant lemma="bus" role="done-by" tokens="w15;w16"/>
      <participant lemma="bus" tokens="w16"/>
      <participant lemma="firefighter" role="patient" tokens="w17"/>
    </tuple>
    <tuple id="2" profile="patient-2" profileConfidence="0" sentenceId="s1">
      <!--a comment-->
      <event lemma="respond" mention="t2" tokens="w2"/>
      <event lemma="go" tokens="w3;w4"/>
      <participant lemma="firefighter" role="agent" tokens="w5;w6"/>
    </tuple>
    <tuple id="3" profile="agent-1-sem" profileConfidence="75" sentenceId="s2">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t23" tokens="w23"/>
      <participant lemma="firefighter" role="patient" tokens="w26;w27"/>
      <participant lemma="bus" role="agent" tokens="w27;w28"/>
    </tuple>
    <tuple id="4" profile="patient-2" profileConfidence="30" sentenceId="s3">
      <!--a comment-->
      <event lemma="respond" mention="t20" tokens="w20"/>
      <participant lemma="firefighter" role="done-by" tokens="w23"/>
      <participant lemma="bus" role="agent" tokens="w24"/>
    </tuple>
    <tuple id="5" profile="patient-2" profileConfidence="75" sentenceId="s4">
      <!--a comment-->
      <event lemma="die" mention="t40" tokens="w40"/>
      <participant lemma="bus" role="done-by" tokens="w43;w44"/>
      <participant lemma="bus" tokens="w44;w45"/>
      <participant lemma="firefighter" role="patient" tokens="w45"/>
    </tuple>
    <tuple id="6" profile="agent-1-sem" profileConfidence="x" sentenceId="s5">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t42" tokens="w42"/>
      <participant lemma="firefighter" role="agent" tokens="w45;w46"/>
      <participant lemma="firefighter" role="done-by" tokens="w46"/>
      <participant lemma="bus" role="done-by" tokens="w47;w48"/>
    </tuple>
  </tuples>
  <tuples source="doc11011-1.kaf">
    <tuple id="1" profile="patient-2" profileConfidence="x" sentenceId="s0">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t34" tokens="w34"/>
      <participant lemma="firefighter" role="agent" tokens="w37;w38"/>
    </tuple>
  </tuples>
</kafkybot-results>
