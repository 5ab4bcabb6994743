<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<kafkybot-results>
  <tuples source="doc11017-0.kaf">
    <tuple id="1" profile="patient-2" profileConfidence="x" sentenceId="s0">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t31" tokens="w31"/>
      <participant lemma="firefighter" role="agent" tokens="w34"/>
      <participant lemma="bus" tokens="w35;w36"/>
      <participant lemma="bus" role="done-by" tokens="w36;w37"/>
    </tuple>
    <tuple id="2" profile="patient-2" profileConfidence="75" sentenceId="s1">
      <!--a comment-->
      <event lemma="die" mention="t5" tokens="w5"/>
      <participant lemma="firefighter" tokens="w8;w9"/>
      <participant lemma="firefighter" tokens="w9;w10"/>
      <participant lemma="firefighter" tokens="w10;w11"/>
    </tuple>
    <tuple id="3" profile="agent-1-sem" profileConfidence="x" sentenceId="s2">
      <!--a comment-->
      <event lemma="respond" mention="t28" tokens="w28"/>
      <event lemma="go" tokens="w29;w30"/>
      <participant lemma="bus" tokens="w31;w32"/>
    </tuple>
  </tuples>
  <tuples source="doc11017-1.kaf">
    <tuple id="1" profile="patient-2" profileConfidence="x" sentenceId="s0">
      <!--a comment-->
      <event lemma="respond" mention="t32" tokens="w32"/>
      <participant lemma="bus" role="done-by" tokens="w35"/>
    </tuple>
    <tuple id="2" profile="agent-1-sem" profileConfidence="x" sentenceId="s1">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t7" tokens="w7"/>
      <participant lemma="bus" role="patient" tokens="w10"/>
      <participant lemma="firefighter" role="done-by" tokens="w11"/>
      <participant lemma="bus" role="patient" tokens="w12;w13"/>
    </tuple>
  </tuples>
</kafkybot-results>
