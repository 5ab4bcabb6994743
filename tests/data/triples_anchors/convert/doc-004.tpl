<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<kafkybot-results>
  <tuples source="doc11004-0.kaf">
    <tuple id="1" profile="agent-1-sem" profileConfidence="x" sentenceId="s0">
      <!--a comment-->
      <event lemma="R&amp;D" mention="t11" tokens="w11"/>
      <participant lemma="firefighter" role="agent" tokens="w14;w15"/>
      <participant lemma="firefighter" role="patient" tokens="w15"/>
    </tuple>
    <tuple id="2" profile="agent-1-sem" profileConfidence="0" sentenceId="s1">
      <!--a comment-->
      <event lemma="die" mention="t19" tokens="w19"/>
      <participant lemma="firefighter" tokens="w22"/>
      <participant lemma="bus" role="agent" tokens="w23;w24"/>
      <participant lemma="bus" role="agent" tokens="w24"/>
    </tuple>
  </tuples>
</kafkybot-results>
