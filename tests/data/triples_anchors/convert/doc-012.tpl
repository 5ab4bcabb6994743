<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<kafkybot-results>
  <tuples source="doc11012-0.kaf">
    <tuple id="1" profile="agent-1-sem" profileConfidence="30" sentenceId="s0">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t39" tokens="w39"/>
      <participant lemma="bus" role="patient" tokens="w42;w43"/>
    </tuple>
    <tuple id="2" profile="patient-2" profileConfidence="0" sentenceId="s1">
      <!--a comment-->
      <event lemma="die" mention="t31" tokens="w31"/>
      <participant lemma="bus" tokens="w34;w35"/>
      <participant lemma="firefighter" role="patient" tokens="w35"/>
    </tuple>
    <tuple id="3" profile="patient-2" profileConfidence="0" sentenceId="s2">
      <!--a comment-->
      <event lemma="respond" mention="t22" tokens="w22"/>
      <participant lemma="bus" role="done-by" tokens="w25"/>
      <participant lemma="bus" role="patient" tokens="w26"/>
      <participant lemma="firefighter" role="patient" tokens="w27"/>
    </tuple>
    <tuple id="4" profile="agent-1-sem" profileConfidence="0" sentenceId="s3">
      <!--a comment-->
      <event lemma="die" mention="t41" tokens="w41"/>
      <participant lemma="bus" role="agent" tokens="w44"/>
      <participant lemma="bus" role="done-by" tokens="w45;w46"/>
      <participant lemma="bus" tokens="w46;w47"/>
    </tuple>
    <tuple id="5" profile="agent-1-sem" profileConfidence="75" sentenceId="s4">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t34" tokens="w34"/>
      <participant lemma="firefighter" tokens="w37;w38"/>
      <participant lemma="bus" role="patient" tokens="w38;w39"/>
      <participant lemma="firefighter" role="agent" tokens="w39"/>
    </tuple>
    <tuple id="6" profile="patient-2" profileConfidence="30" sentenceId="s5">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t8" tokens="w8"/>
      <participant lemma="firefighter" tokens="w11"/>
      <participant lemma="bus" role="agent" tokens="w12"/>
    </tuple>
  </tuples>
</kafkybot-results>
