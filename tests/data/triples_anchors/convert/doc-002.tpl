<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<kafkybot-results>
  <tuples source="doc11002-0.kaf">
    <tuple id="1" profile="patient-2" profileConfidence="x" sentenceId="s0">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t17" tokens="w17"/>
      <participant lemma="bus" role="done-by" tokens="w20;w21"/>
      <participant lemma="firefighter" role="done-by" tokens="w21;w22"/>
      <participant lemma="bus" role="patient" tokens="w22;w23"/>
    </tuple>
    <tuple id="2" profile="patient-2" profileConfidence="x" sentenceId="s1">
      <!--a comment-->
      <event lemma="respond" mention="t40" tokens="w40"/>
      <event lemma="go" tokens="w41;w42"/>
      <participant lemma="firefighter" tokens="w43;w44"/>
      <participant lemma="firefighter" role="patient" tokens="w44;w45"/>
      <participant lemma="bus" role="patient" tokens="w45"/>
    </tuple>
    <tuple id="3" profile="patient-2" profileConfidence="0" sentenceId="s2">
      <!--a comment-->
      <event lemma="die" mention="t40" tokens="w40"/>
      <participant lemma="bus" role="done-by" tokens="w43"/>
    </tuple>
    <tuple id="4" profile="patient-2" profileConfidence="30" sentenceId="s3">
      <!--a comment-->
      <event lemma="die" mention="t25" tokens="w25"/>
      <participant lemma="bus" tokens="w28"/>
      <participant lemma="firefighter" role="done-by" tokens="w29"/>
      <participant lemma="bus" role="agent" tokens="w30;w31"/>
    </tuple>
    <tuple id="5" profile="agent-1-sem" profileConfidence="75" sentenceId="s4">
      <!--a comment-->
      <event lemma="die" mention="t49" tokens="w49"/>
      <participant lemma="firefighter" role="done-by" tokens="w52"/>
    </tuple>
    <tuple id="6" profile="patient-2" profileConfidence="0" sentenceId="s5">
      <!--a comment-->
      <event lemma="die" mention="t45" tokens="w45"/>
      <event lemma="go" tokens="w46;w47"/>
      <participant lemma="bus" role="patient" tokens="w48"/>
      <participant lemma="firefighter" role="patient" tokens="w49"/>
    </tuple>
  </tuples>
  <tuples source="doc11002-1.kaf">
    <tuple id="1" profile="agent-1-sem" profileConfidence="x" sentenceId="s0">
      <!--a comment-->
      <event lemma="respond" mention="t27" tokens="w27"/>
      <participant lemma="bus" tokens="w30"/>
      <participant lemma="firefighter" role="patient" tokens="w31;w32"/>
      <participant lemma="bus" role="patient" tokens="w32"/>
    </tuple>
    <tuple id="2" profile="agent-1-sem" profileConfidence="x" sentenceId="s1">
      <!--a comment-->
      <event lemma="die" mention="t8" tokens="w8"/>
      <event lemma="go" tokens="w9;w10"/>
      <participant lemma="firefighter" role="agent" tokens="w11"/>
    </tuple>
    <tuple id="3" profile="patient-2" profileConfidence="x" sentenceId="s2">
      <!--a comment-->
      <event lemma="die" mention="t36" tokens="w36"/>
      <participant lemma="firefighter" role="patient" tokens="w39"/>
    </tuple>
    <tuple id="4" profile="patient-2" profileConfidence="x" sentenceId="s3">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t1" tokens="w1"/>
      <participant lemma="firefighter" role="done-by" tokens="w4"/>
    </tuple>
    <tuple id="5" profile="patient-2" profileConfidence="75" sentenceId="s4">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t4" tokens="w4"/>
      <event lemma="go" tokens="w5;w6"/>
      <participant lemma="firefighter" role="patient" tokens="w7"/>
    </tuple>
    <tuple id="6" profile="agent-1-sem" profileConfidence="x" sentenceId="s5">
      <!--a comment-->
      <event lemma="respond" mention="t17" tokens="w17"/>
      <participant lemma="bus" role="done-by" tokens="w20"/>
      <participant lemma="firefighter" role="agent" tokens="w21;w22"/>
      <participant lemma="bus" role="agent" tokens="w22"/>
    </tuple>
  </tuples>
</kafkybot-results>
