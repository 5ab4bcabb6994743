<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<kafkybot-results>
  <tuples source="doc11013-0.kaf">
    <tuple id="1" profile="agent-1-sem" profileConfidence="x" sentenceId="s0">
      <!--a comment-->
      <event lemma="respond" mention="t29" tokens="w29"/>
      <participant lemma="bus" role="done-by" tokens="w32;w33"/>
      <participant lemma="firefighter" tokens="w33"/>
    </tuple>
    <tuple id="2" profile="patient-2" profileConfidence="x" sentenceId="s1">
      <!--a comment-->
      <event lemma="respond" mention="t48" tokens="w48"/>
      <participant lemma="bus" role="done-by" tokens="w51;w52"/>
      <participant lemma="firefighter" role="agent" tokens="w52;w53"/>
      <participant lemma="bus" role="agent" tokens="w53"/>
    </tuple>
    <tuple id="3" profile="patient-2" profileConfidence="x" sentenceId="s2">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t30" tokens="w30"/>
      <participant lemma="bus" tokens="w33"/>
    </tuple>
    <tuple id="4" profile="patient-2" profileConfidence="30" sentenceId="s3">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t6" tokens="w6"/>
      <participant lemma="firefighter" role="patient" tokens="w9"/>
      <participant lemma="firefighter" role="agent" tokens="w10"/>
      <participant lemma="firefighter" role="agent" tokens="w11"/>
    </tuple>
    <tuple id="5" profile="patient-2" profileConfidence="75" sentenceId="s4">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t45" tokens="w45"/>
      <participant lemma="firefighter" role="patient" tokens="w48"/>
    </tuple>
    <tuple id="6" profile="agent-1-sem" profileConfidence="0" sentenceId="s5">
      <!--a comment-->
      <event lemma="die" mention="t1" tokens="w1"/>
      <participant lemma="firefighter" role="agent" tokens="w4"/>
      <participant lemma="bus" role="patient" tokens="w5;w6"/>
    </tuple>
  </tuples>
</kafkybot-results>
