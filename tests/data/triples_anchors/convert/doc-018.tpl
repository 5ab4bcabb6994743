<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<kafkybot-results>
  <tuples source="doc11018-0.kaf">
    <tuple id="1" profile="patient-2" profileConfidence="30" sentenceId="s0">
      <!--a comment-->
      <event lemma="die" mention="t12" tokens="w12"/>
      <participant lemma="firefighter" tokens="w15;w16"/>
      <participant lemma="firefighter" role="agent" tokens="w16;w17"/>
      <participant lemma="bus" role="patient" tokens="w17;w18"/>
    </tuple>
    <tuple id="2" profile="agent-1-sem" profileConfidence="0" sentenceId="s1">
      <!--a comment-->
      <event lemma="respond" mention="t11" tokens="w11"/>
      <participant lemma="firefighter" tokens="w14"/>
    </tuple>
  </tuples>
  <tuples source="doc11018-1.kaf">
    <tuple id="1" profile="agent-1-sem" profileConfidence="30" sentenceId="s0">
      <!--a comment-->
      <event lemma="respond" mention="t1" tokens="w1"/>
      <event lemma="go" tokens="w2;w3"/>
      <participant lemma="bus" role="done-by" tokens="w4"/>
      <participant lemma="bus" tokens="w5"/>
      <participant lemma="bus" role="agent" tokens="w6;w7"/>
    </tuple>
    <tuple id="2" profile="patient-2" profileConfidence="0" sentenceId="s1">
      <!--a comment-->
      <event lemma="respond" mention="t41" tokens="w41"/>
      <event lemma="go" tokens="w42;w43"/>
      <participant lemma="firefighter" role="agent" tokens="w44;w45"/>
      <participant lemma="bus" role="patient" tokens="w45;w46"/>
      <participant lemma="firefighter" role="patient" tokens="w46"/>
    </tuple>
  </tuples>
</kafkybot-results>
