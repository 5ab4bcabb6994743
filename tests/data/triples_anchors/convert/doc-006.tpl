<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<kafkybot-results>
  <tuples source="doc11006-0.kaf">
    <tuple id="1" profile="agent-1-sem" profileConfidence="30" sentenceId="s0">
      <!--a comment-->
      <event lemma="respond" mention="t15" tokens="w15"/>
      <participant lemma="firefighter" role="done-by" tokens="w18;w19"/>
    </tuple>
    <tuple id="2" profile="patient-2" profileConfidence="75" sentenceId="s1">
      <!--a comment-->
      <event lemma="die" mention="t20" tokens="w20"/>
      <participant lemma="bus" role="patient" tokens="w23;w24"/>
      <participant lemma="bus" role="patient" tokens="w24;w25"/>
      <participant lemma="bus" role="patient" tokens="w25;w26"/>
    </tuple>
    <tuple id="3" profile="patient-2" profileConfidence="30" sentenceId="s2">
      <!--a comment-->
      <event lemma="die" mention="t19" tokens="w19"/>
      <participant lemma="firefighter" role="patient" tokens="w22"/>
      <participant lemma="firefighter" role="done-by" tokens="w23"/>
    </tuple>
  </tuples>
  <tuples source="doc11006-1.kaf">
    <tuple id="1" profile="patient-2" profileConfidence="75" sentenceId="s0">
      <!--a comment-->
      <event lemma="respond" mention="t43" tokens="w43"/>
      <participant lemma="bus" role="done-by" tokens="w46;w47"/>
      <participant lemma="bus" role="done-by" tokens="w47;w48"/>
    </tuple>
    <tuple id="2" profile="patient-2" profileConfidence="x" sentenceId="s1">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t3" tokens="w3"/>
      <participant lemma="bus" role="done-by" tokens="w6"/>
    </tuple>
    <tuple id="3" profile="patient-2" profileConfidence="75" sentenceId="s2">
      <!--a comment-->
      <event lemma="die" mention="t35" tokens="w35"/>
      <participant lemma="firefighter" role="patient" tokens="w38;w39"/>
      <participant lemma="firefighter" role="agent" tokens="w39;w40"/>
      <participant lemma="bus" role="patient" tokens="w40"/>
    </tuple>
  </tuples>
</kafkybot-results>
