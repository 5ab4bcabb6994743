<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<kafkybot-results>
  <tuples source="doc11000-0.kaf">
    <tuple id="1" profile="patient-2" profileConfidence="x" sentenceId="s0">
      <!--a comment-->
      <event lemma="die" mention="t2" tokens="w2"/>
      <event lemma="go" tokens="w3;w4"/>
      <participant lemma="firefighter" role="done-by" tokens="w5"/>
    </tuple>
    <tuple id="2" profile="agent-1-sem" profileConfidence="75" sentenceId="s1">
      <!--a comment-->
      <event lemma="respond" mention="t33" tokens="w33"/>
      <participant lemma="firefighter" role="done-by" tokens="w36"/>
    </tuple>
    <tuple id="3" profile="agent-1-sem" profileConfidence="75" sentenceId="s2">
      <!--a comment-->
      <event lemma="respond" mention="t48" tokens="w48"/>
      <participant lemma="firefighter" role="done-by" tokens="w51;w52"/>
      <participant lemma="bus" role="done-by" tokens="w52"/>
      <participant lemma="bus" role="done-by" tokens="w53;w54"/>
    </tuple>
    <tuple id="4" profile="agent-1-sem" profileConfidence="30" sentenceId="s3">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t27" tokens="w27"/>
      <event lemma="go" tokens="w28;w29"/>
      <participant lemma="firefighter" tokens="w30;w31"/>
      <participant lemma="firefighter" role="agent" tokens="w31"/>
    </tuple>
    <tuple id="5" profile="agent-1-sem" profileConfidence="0" sentenceId="s4">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t44" tokens="w44"/>
      <event lemma="go" tokens="w45;w46"/>
      <participant lemma="firefighter" role="agent" tokens="w47"/>
      <participant lemma="firefighter" role="done-by" tokens="w48"/>
      <participant lemma="bus" tokens="w49"/>
    </tuple>
  </tuples>
</kafkybot-results>
