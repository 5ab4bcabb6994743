<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<kafkybot-results>
  <tuples source="doc11001-0.kaf">
    <tuple id="1" profile="patient-2" profileConfidence="0" sentenceId="s0">
      <!--a comment-->
      <event lemma="respond" mention="t34" tokens="w34"/>
      <participant lemma="firefighter" role="done-by" tokens="w37"/>
      <participant lemma="bus" role="patient" tokens="w38;w39"/>
      <participant lemma="bus" role="agent" tokens="w39"/>
    </tuple>
    <tuple id="2" profile="patient-2" profileConfidence="0" sentenceId="s1">
      <!--a comment-->
      <event lemma="die" mention="t13" tokens="w13"/>
      <participant lemma="firefighter" role="agent" tokens="w16;w17"/>
    </tuple>
    <tuple id="3" profile="agent-1-sem" profileConfidence="0" sentenceId="s2">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t22" tokens="w22"/>
      <participant lemma="firefighter" tokens="w25"/>
    </tuple>
    <tuple id="4" profile="patient-2" profileConfidence="75" sentenceId="s3">
      <!--a comment-->
      <event lemma="die" mention="t29" tokens="w29"/>
      <event lemma="go" tokens="w30;w31"/>
      <participant lemma="firefighter" role="agent" tokens="w32"/>
      <participant lemma="bus" role="agent" tokens="w33"/>
      <participant lemma="bus" role="patient" tokens="w34;w35"/>
    </tuple>
    <tuple id="5" profile="agent-1-sem" profileConfidence="30" sentenceId="s4">
      <!--a comment-->
      <event lemma="die" mention="t22" tokens="w22"/>
      <participant lemma="firefighter" role="agent" tokens="w25;w26"/>
      <participant lemma="firefighter" role="patient" tokens="w26;w27"/>
      <participant lemma="bus" role="agent" tokens="w27;w28"/>
    </tuple>
    <tuple id="6" profile="patient-2" profileConfidence="75" sentenceId="s5">
      <!--a comment-->
      <event lemma="die" mention="t31" tokens="w31"/>
      <event lemma="go" tokens="w32;w33"/>
      <participant lemma="bus" role="patient" tokens="w34"/>
    </tuple>
  </tuples>
</kafkybot-results>
