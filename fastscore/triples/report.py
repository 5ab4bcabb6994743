"""Reports of a triple run: readable text, JSON, CSV, Markdown, and ``module`` — the report file the Triple
evaluation module writes, to the character:

- a file pair, partial ids (``EvaluateTriples``): ``SYSTEM.xls`` (token range lines, figures, element
  statistics, the per-relation table);
- a file pair with ``--exact-ids`` or ``--dedup exact`` (``EvaluateTriplesDebug``): its ``SYSTEM.xls``
  (file statistics, all four variants, the per-profile and per-relation tables);
- two folders (``EvaluateTripleFolders``): its results file (relation table, totals, relation confusion
  matrix, mismatches, triples not covered and with a wrong relation).  Its header names the folders and
  the date, as the module's does.

Numbers come from the result's ``DocStats`` totals; row orders are the module's (Java ``HashMap`` orders,
``TreeSet`` orders), rebuilt from the prepared triples.
"""
from __future__ import annotations

import csv as _csv
import io
import json
import os
import time
from collections import Counter

from ..formats.triples import triple_string
from .java import ddiv, double_str, fold, hashmap_order, idiv, percent_int
from .metrics import SEP, SHORT
from .options import VARIANT_TITLES
from ..report.cells import ci_note, ci_of, pct

FORMATS = ("text", "module", "json", "csv", "markdown")


def render(result, fmt: str = "text", per_doc: bool = False) -> str:
    if fmt == "json":
        return json.dumps(result.to_dict(per_doc=per_doc), indent=2) + "\n"
    if fmt == "module":
        return module_report(result)
    return {"text": text, "csv": csv, "markdown": markdown}[fmt](result, per_doc)


# ---- readable reports

def text(result, per_doc: bool = False) -> str:
    s = result.scores()
    st = s["statistics"]
    m = s["metrics"]["triples"]
    lines = [f"gold:   {result.inputs.gold_path}", f"system: {result.inputs.system_path}",
             f"documents: {st['documents']}   counting: {st['variant_title'].lower()}; gold triples counted once "
             f"({st['dedup']} duplicates)", ""]
    ci = result.bootstrap is not None
    head = f"{'':<22}{'precision':>10}{'recall':>9}{'F1':>9}{'correct':>9}{'system':>9}{'gold':>9}"
    lines.append(head + (f"  {result.bootstrap.level * 100:g}% CI of F1" if ci else ""))
    labels = {"metric": "{}", "variant": "  {}", "elements": "{} elements"}  # the rows the table shares with CSV
    for scope, name, precision, recall, f1, correct, system, gold, *_ in _table_rows(result, False)[1]:
        if scope in labels:
            row = (f"{labels[scope].format(name):<22}{pct(precision):>10}{pct(recall):>9}{pct(f1):>9}{correct:>9}"
                   f"{system:>9}{gold:>9}")
            lines.append(row + ("  " + ci_of(m) if ci and scope == "metric" else ""))
    g, sy = st["gold"], st["system"]
    lines += ["", f"gold triples {g['triples']}, average ids per element {g['average_first_ids']:.2f} (first) "
                  f"{g['average_second_ids']:.2f} (second)",
              f"system triples {sy['triples']} ({sy['in_range']} in range, {sy['out_of_range']} out of range), "
              f"{sy['unique_in_scope']} unique in scope, average ids per element {sy['average_first_ids']:.2f} "
              f"(first) {sy['average_second_ids']:.2f} (second)"]
    rel = s["per_relation"]
    if rel:
        width = max(8, *(len(k) for k in rel))
        lines += ["", f"{'relation':<{width}}{'gold':>7}{'share':>8}{'system':>8}{'share':>8}{'correct':>9}"
                      f"{'recall':>9}{'precision':>11}"]
        for name, r in rel.items():
            lines.append(f"{name:<{width}}{r['gold']:>7}{pct(r['gold_share']):>8}{r['system']:>8}"
                         f"{pct(r['system_share']):>8}{r['correct']:>9}{pct(r['recall']):>9}"
                         f"{pct(r['precision']):>11}")
    if per_doc:
        width = max([len(n) for n in result.documents] + [8])
        lines += ["", f"{'document':<{width}}{'precision':>10}{'recall':>9}{'F1':>9}"]
        for name in result.documents:
            d = result.document(name)["metrics"]["triples"]
            lines.append(f"{name:<{width}}{pct(d['precision']):>10}{pct(d['recall']):>9}{pct(d['f1']):>9}")
    if ci:
        lines += ["", *ci_note(result)]
    lines += ["", f"signature: {result.signature()}"]
    return "\n".join(lines) + "\n"


def _f1(obj: dict) -> float:
    """The F1 of a score object that keeps precision and recall only (elements, relations)."""
    p, r = obj["precision"], obj["recall"]
    return 2 * p * r / (p + r) if p + r else 0


def _table_rows(result, per_doc: bool) -> tuple[list[str], list[list]]:
    s = result.scores()
    head = ["scope", "name", "precision", "recall", "f1", "correct", "system", "gold"]
    rows = []
    m = s["metrics"]["triples"]
    if result.bootstrap is not None:
        head += ["ci_low", "ci_high"]
    rows.append(["metric", "triples", m["precision"], m["recall"], m["f1"], m["correct"], m["system"], m["gold"]]
                + (m["ci"] if "ci" in m else []))
    for v, obj in s["statistics"]["variants"].items():
        rows.append(["variant", v, obj["precision"], obj["recall"], obj["f1"], obj["correct"], obj["system"],
                     obj["gold"]])
    for side in ("first", "second"):
        e = s["statistics"][f"{side}_elements"]
        rows.append(["elements", side, e["precision"], e["recall"], _f1(e), e["correct"], e["system"], e["gold"]])
    for name, r in s["per_relation"].items():
        rows.append(["relation", name, r["precision"], r["recall"], _f1(r), r["correct"], r["system"], r["gold"]])
    if per_doc:
        for name in result.documents:
            d = result.document(name)["metrics"]["triples"]
            rows.append(["document", name, d["precision"], d["recall"], d["f1"], d["correct"], d["system"],
                         d["gold"]])
    return head, rows


def csv(result, per_doc: bool = False) -> str:
    head, rows = _table_rows(result, per_doc)
    out = io.StringIO()
    w = _csv.writer(out, lineterminator="\n")
    w.writerow(head)
    w.writerows(rows)
    return out.getvalue()


def markdown(result, per_doc: bool = False) -> str:
    head, rows = _table_rows(result, per_doc)
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [f"{100 * x:.2f}" if isinstance(x, float) else str(x).replace("|", "\\|") for x in r]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n\n" + f"signature: `{result.signature()}`\n"


# ---- the module's report

def module_report(result) -> str:
    inputs = result.inputs
    if inputs.folder:
        return _folders(result)
    if inputs.options.exact_ids or inputs.options.dedup_exact(False):
        return _debug(result)
    return _single(result)


def _avg(total_ids: float, n: float) -> int:
    """The module's integer average (``n`` 0: the sum, as the module prints it when nothing was divided)."""
    return idiv(int(total_ids), int(n)) if n else int(total_ids)


def _range_head(opts) -> str:
    if not opts.token_range:
        return ""
    return f"tokenRangeFile:\t{opts.token_range}\ntokenRange:\t{len(opts.range_tokens)}\n"


def _names(result) -> tuple[str, str]:
    return os.path.basename(result.inputs.gold_path), os.path.basename(result.inputs.system_path)


def _percent(count: int, total: int) -> int:
    """The module's integer percentage, 0 of nothing."""
    return idiv(100 * count, total) if total > 0 else 0


def _figures_head(t: dict, gold_name: str, system_name: str, total_label: str, prep) -> str:
    n_sys = int(t["system"])
    out = int(t["out_of_range"])
    # a file whose parse failed: the module never divides its id sums (its parse() divides after a success)
    g_n, s_n = (0 if any(d.stopped for d in docs) else n
                for docs, n in ((prep.gold_docs, t["gold"]), (prep.system_docs, t["system"])))
    return ("\nPrecision and recall figures\n"
            f"Gold standard\t{gold_name}\n"
            f"\tNr. of Triples\t{int(t['gold'])}\n"
            f"\tAverage nr. of first element ids\t{_avg(t['gold_first_ids'], g_n)}\n"
            f"\tAverage nr. of second element ids\t{_avg(t['gold_second_ids'], g_n)}\n"
            f"\nSystem file\t{system_name}\n"
            f"\t{total_label}\t{n_sys + out}\n"
            f"\tNr. of Triples in range\t{n_sys}\n"
            f"\tNr. of Triples out of range\t{out}\n"
            f"\tAverage nr. of first element ids\t{_avg(t['system_first_ids'], s_n)}\n"
            f"\tAverage nr. of second element ids\t{_avg(t['system_second_ids'], s_n)}\n"
            f"\tNumber of unique Triples in scope\t{int(t['unique_pr'])}\n"
            "\n")


def _keyed(t: dict, prefix: str) -> list[tuple[str, int]]:
    """(key, count) of the columns ``PREFIX<TAB>key`` in column (= insertion) order."""
    return [(c[len(prefix) + 1:], int(v)) for c, v in t.items() if c.startswith(prefix + SEP)]


def _label_table(t: dict, prefix: str) -> str:
    pairs = dict(_keyed(t, prefix))
    return "".join(f"\t{key}\t{pairs[key]}\n" for key in hashmap_order(pairs)) + f"\tTotal\t{sum(pairs.values())}\n"


def _elements(t: dict) -> str:
    out = "\n"
    for side in ("first", "second"):
        gold, system, matched = int(t[f"{side}_gold"]), int(t[f"{side}_system"]), int(t[f"{side}_correct"])
        out += (f"\tNumber of non-intersecting {side} elements represented in gold standard Triples\t{gold}\n"
                f"\tNumber of non-intersecting {side} elements represented in system Triples\t{system}\n"
                f"\tNumber of correct {side} elements represented in system Triples\t{matched}\n"
                f"\tNumber of incorrect {side} elements represented in system Triples\t{system - matched}\n"
                f"\tRecall of {side} elements\t{double_str(ddiv(matched, gold))}\n"
                f"\tPrecision of {side} elements\t{double_str(ddiv(matched, system))}\n"
                "\n"
                f"\tLabel matches {side} elements:\n" + _label_table(t, f"{side}_label_match") + "\n"
                f"\tLabel mismatches {side} elements:\n" + _label_table(t, f"{side}_label_mismatch") + "\n\n")
    return out


def _variant_block(title: str, correct: float, unique: float, gold: float) -> str:
    return (f"\n{title}\n\tNr. correct\t{int(correct)}\n\tPrecision\t{double_str(ddiv(correct, unique))}\n"
            f"\tRecall\t{double_str(ddiv(correct, gold))}\n")


def _relation_keys(prep) -> list[list[str]]:
    """Per document, the module's per-relation map in its iteration order (gold relations, then the
    system relations, as they come)."""
    return [hashmap_order([*g, *s]) for g, s in zip(prep.gold.relations, prep.system.relations)]


def _single(result) -> str:
    """EvaluateTriples: printResults + printRelationResults (one file pair)."""
    prep = result.prepared
    t = result.totals()
    gold_name, system_name = _names(result)
    s = _range_head(prep.options) + _figures_head(t, gold_name, system_name, "Nr. of Triples in total", prep)
    s += _elements(t)
    if prep.options.ignore_relations:
        s += _variant_block(VARIANT_TITLES["partial-any-relation"], t["correct_p"], t["unique_p"], t["gold"])
    else:
        s += _variant_block(VARIANT_TITLES["partial"], t["correct_pr"], t["unique_pr"], t["gold"])
        s += _scope_row(t, system_name, "Triples in scope")
        sys_all, sys_in = int(t["first_system"] + t["first_system_out"]), int(t["first_system"])
        s += ("\n\tNr First Elements\tCorrect\tRecall\tPrecision\n"
              f"{system_name}\t{sys_all}\t{sys_in}\t{double_str(ddiv(sys_in, t['first_gold']))}\t"
              f"{double_str(ddiv(sys_in, sys_all))}\n")
    correct = "correct_p" if prep.options.ignore_relations else "correct_pr"
    s += _relation_table(t, _relation_keys(prep)[0], correct, "Proportion Gold")
    return s


def _scope_row(t: dict, system_name: str, scope_head: str) -> str:
    """The system file's partial-id, same-relation row (``scope_head``: the module's spelling of that column)."""
    c, u = t["correct_pr"], t["unique_pr"]
    return (f"\n\tNr of Triples\t{scope_head}\tCorrect\tWSD threshold\tPrecision\tRecall\n"
            f"{system_name}\t{int(t['system'] + t['out_of_range'])}\t{int(u)}\t{int(c)}\t\t"
            f"{double_str(ddiv(c, u))}\t{double_str(ddiv(c, t['gold']))}\n")


def _relation_table(t: dict, keys: list[str], correct: str, gold_head: str) -> str:
    s = ("\nResults per relation\n"
         f"Relation\tTotal gold\t{gold_head}\tTotal system\tProportion system\tPartialIdExactRelation\tRecall\t"
         "Precision\n")
    n_gold, n_sys = int(t["gold"]), int(t["system"])
    rows = [[int(t[f"relation{SEP}{key}{SEP}{stat}"]) for stat in ("gold", "system", correct)] for key in keys]
    for key, (g, sy, c) in zip(keys, rows):
        s += (f"{key}\t{g}\t{percent_int(g, n_gold)}%\t{sy}\t{percent_int(sy, n_sys)}%\t{c}\t{_percent(c, g)}\t"
              f"{_percent(c, sy)}\n")
    g, sy, c = (sum(column) for column in zip(*rows)) if rows else (0, 0, 0)
    return s + f"Total\t{g}\t\t{sy}\t\t{c}\t{_percent(c, g)}\t{_percent(c, sy)}\n"


def _statistics(doc_name: str, passed: int, out: int, ids: list[str], relations: list[str]) -> str:
    """EvaluateTriplesDebug.printStatistics of one side."""
    n = len(relations)
    s = (f"\n\nParsing fileName:\t{doc_name}\nTripleCount:\t{passed}\noutOfRangeCount:\t{out}\n"
         f"inRangeCount:\t{n}\n")
    counts = Counter(relations)
    s += (f"Nr of Triple ids:\t{len(set(ids))}\nNr of relations:\t{len(counts)}\n"
          f"Total nr of second elements:\t{n}\n\nRelations:\n")
    for key in hashmap_order(counts):
        s += f"{key}\t{counts[key]}\t{percent_int(counts[key], n)}%\n"
    return s


def _debug(result) -> str:
    """EvaluateTriplesDebug: statistics of both files, printResults, printRelationTables (one file pair)."""
    prep = result.prepared
    t = result.totals()
    gold_name, system_name = _names(result)
    s = _range_head(prep.options)
    for name, side, doc, out in ((gold_name, prep.gold, prep.gold_docs[0], 0),
                                 (system_name, prep.system, prep.system_docs[0], len(prep.out.rows[0]))):
        s += _statistics(name, side.passed[0], out, [doc.ids[k] for k in side.rows[0]], side.relations[0])
    s += _figures_head(t, gold_name, system_name, "Nr. of Triples", prep) + _elements(t)
    for v in ("exact", "exact-any-relation", "partial", "partial-any-relation"):
        s += _variant_block(VARIANT_TITLES[v], t[f"correct_{SHORT[v]}"], t[f"unique_{SHORT[v]}"], t["gold"])
    s += _scope_row(t, system_name, "Triples inscope")  # (sic)
    # printRelationTables
    s += ("\nResults per profile\n"
          "Profile\tTotal System\tExactIdExactRelation\tPrecision\tExactId\tPrecision\tPartialIdExactRelation\t"
          "Precision\tPartialId\tPrecision\n")
    profiles = [k for k, _ in _keyed(t, "profile") if k.endswith(SEP + "total")]
    for name in hashmap_order(k[: -len(SEP + "total")] for k in profiles):
        base = f"profile{SEP}{name}{SEP}"
        total = int(t[base + "total"])
        s += name + f"\t{total}" + "".join(f"\t{int(t[base + v])}\t{_percent(int(t[base + v]), total)}"
                                           for v in ("xr", "x", "pr", "p")) + "\n"
    s += ("\nResults per relation\n"
          "Relation\tTotal gold\tTotal system\tExactIdExactRelation\tRecall\tPrecision\tPartialIdExactRelation\t"
          "Recall\tPrecision\n")
    keys = _relation_keys(prep)[0]
    rows = [[int(t[f"relation{SEP}{key}{SEP}{stat}"]) for stat in ("gold", "system", "correct_xr", "correct_pr")]
            for key in keys]
    for key, (gold, system, *correct) in zip(keys + ["Total"], rows + [[sum(c) for c in zip(*rows)] or [0] * 4]):
        s += f"{key}\t{gold}\t{system}" + "".join(f"\t{c}\t{_percent(c, gold)}\t{_percent(c, system)}"
                                                  for c in correct) + "\n"
    return s


# ---- EvaluateTripleFolders

def _folders(result) -> str:
    prep = result.prepared
    t = result.totals()
    ds = result.doc_stats
    date = time.strftime("%a %Y.%m.%d at %I:%M:%S %p %Z")
    s = (f"goldStandardTripleFolder\t{result.inputs.gold_path}\nsystemTripleFolder\t{result.inputs.system_path}\n\n"
         f"Date\t{date}\n\n")
    # the per-relation map: each file's map in its order, new keys appended to the total map
    total_keys: list[str] = []
    for keys in _relation_keys(prep):
        total_keys.extend(k for k in keys if k not in total_keys)
    s += _relation_table(t, hashmap_order(total_keys), "correct_pr", "Proportion gold")
    # outputTotalCounts: per-file integer averages, added, over the total triples
    rows = [ds.row(i) for i in range(len(ds))]
    avg = {f"{side[0]}{el[0]}": sum(_avg(row[f"{side}_{el}_ids"], row[side]) for row in rows)
           for side in ("gold", "system") for el in ("first", "second")}
    n_gold, n_sys = int(t["gold"]), int(t["system"])
    s += ("\nPrecision and recall figures\nGold standard\n"
          f"\tNr. of Triples\t{n_gold}\n"
          f"\tAverage nr. of first element ids\t{double_str(ddiv(avg['gf'], n_gold))}\n"
          f"\tAverage nr. of second element ids\t{double_str(ddiv(avg['gs'], n_gold))}\n"
          f"\tNumber of first elements represented in gold standard Triples\t{int(t['first_gold'])}\n"
          f"\tNumber of second elements represented in gold standard Triples\t{int(t['second_gold'])}\n"
          "\n\nSystem file\n"
          f"\tNr. of Triples in range\t{n_sys}\n"
          f"\tAverage nr. of first element ids\t{double_str(ddiv(avg['sf'], n_sys))}\n"
          f"\tAverage nr. of second element ids\t{double_str(ddiv(avg['ss'], n_sys))}\n"
          "\n"
          f"\tNumber of first elements represented in system Triples\t"
          f"{int(t['first_system'] + t['first_system_out'])}\n"
          f"\tNumber of second element represented in system Triples\t"
          f"{int(t['second_system'] + t['second_system_out'])}\n"
          "\n")
    c, u = t["correct_pr"], t["unique_pr"]
    p, r = ddiv(c, u), ddiv(c, n_gold)
    f = ddiv(2 * p * r, p + r)
    s += ("\nPartial id, exact relation\nNr of Triples\tNr of unique Triples\tCorrect\tPrecision\tRecall\tFmeasure\n"
          f"{n_sys}\t{int(u)}\t{int(c)}\t{double_str(p)}\t{double_str(r)}\t{double_str(f)}\n")
    s += _variant_block("Partial identifiers and same relation", c, u, n_gold)
    s += "\n" + _variant_block("Partial identifiers and ignore relation", t["correct_p"], t["unique_p"], n_gold)
    s += "\n" + _variant_block("Exact identifiers and same relation", t["correct_xr"], t["unique_xr"], n_gold)
    # the module divides the exact-id, any-relation count by the partial-id unique count (kept in this layout)
    s += "\n" + _variant_block("Exact identifiers and ignore relation", t["correct_x"], t["unique_p"], n_gold)
    s += _confusion(prep)
    s += _error_log(prep)
    return s


def _confusion(prep) -> str:
    st = prep.store
    names = st["relation_names"]
    pairs = prep.mismatches()
    matrix: dict[str, dict[str, int]] = {}
    log = []
    for s_row, g_row in pairs:
        srel, grel = names[st["rel"][s_row]], names[st["rel"][g_row]]
        row = matrix.setdefault(srel, {})
        row[grel] = row.get(grel, 0) + 1
        d = int(st["doc"][s_row])
        sdoc, gdoc = prep.system_docs[d], prep.gold_docs[d]
        sk = prep.system.rows[d][s_row - int(prep.offsets["system"][d])]
        gk = prep.gold.rows[d][g_row - int(prep.offsets["gold"][d])]
        log.append(f"{sdoc.name}:{srel}:{sdoc.first_comments[sk]}:{sdoc.second_comments[sk]}#"
                   f"{grel}:{gdoc.first_comments[gk]}:{gdoc.second_comments[gk]}")
    cols = sorted({g for row in matrix.values() for g in row})
    s = "\n\nRelation confusion matrix, system (rows) versus gold (columns) with partial ID matches:\n"
    s += "".join(f"\t{c}" for c in cols) + "\n"
    for srel in sorted(matrix):
        s += srel + "".join(f"\t{matrix[srel].get(c, 0)}" for c in cols) + "\n"
    s += "\n\nMismatches of relations, syntax: system-triple:gold-triple\n"
    return s + "".join(line + "\n" for line in log)


def _sorted_rows(items: list[tuple[str, str]]) -> str:
    """``Util.sortTriplesForRelation``: relation descending; equal relations in reverse order of addition
    (its comparator never answers 'equal')."""
    ordered = list(reversed(items))
    ordered.sort(key=lambda x: x[0].encode("utf-16-be"), reverse=True)
    return "".join(row for _, row in ordered)


def _partial(a: list, b: list) -> bool:
    return (not a and not b) or bool(set(a) & set(b))


def _exact(a: list, b: list) -> bool:
    return len(a) == len(b) and set(a) <= set(b)


def _error_log(prep) -> str:
    from .engine import KYOTO_ROLES, PR, P

    not_covered: list[tuple[str, str]] = []
    wrong: list[tuple[str, str]] = []
    n_gold = prep.n_gold
    for d in range(len(prep.doc_names)):
        gdoc, sdoc = prep.gold_docs[d], prep.system_docs[d]
        g_rows, s_rows = prep.gold.rows[d], prep.system.rows[d]
        g_rel, s_rel = prep.gold.relations[d], prep.system.relations[d]
        g0 = int(prep.offsets["gold"][d])
        s0 = int(prep.offsets["system"][d]) - n_gold
        profile = gdoc.name
        remaining = list(range(len(g_rows)))  # Util.copyTriples(goldParser.data), then removeTriple
        wrong_here: list[int] = []
        for j in range(len(s_rows)):
            m_p = int(prep.match[P, s0 + j])
            if m_p >= 0:
                g = m_p - g0
                gk = g_rows[g]
                for pos, i in enumerate(remaining):
                    ik = g_rows[i]
                    if gdoc.ids[ik] == gdoc.ids[gk] and set(gdoc.first[ik]) <= set(gdoc.first[gk]) and \
                            set(gdoc.second[ik]) <= set(gdoc.second[gk]):
                        del remaining[pos]
                        break
                if int(prep.match[PR, s0 + j]) < 0:
                    sk = s_rows[j]
                    a_rel = s_rel[j]

                    def dedup(w: int) -> bool:  # Util.compareTriplesPartialIdExactRelation(s, w, false)
                        wk = s_rows[w]
                        if fold(a_rel) == fold(s_rel[w]):
                            return _partial(sdoc.first[sk], sdoc.first[wk]) and \
                                _partial(sdoc.second[sk], sdoc.second[wk])
                        if s_rel[w] == "participant" and a_rel in KYOTO_ROLES:
                            return _exact(sdoc.first[sk], sdoc.first[wk]) and _exact(sdoc.second[sk], sdoc.second[wk])
                        return False

                    if not any(dedup(w) for w in wrong_here):
                        wrong_here.append(j)
        not_covered += [(g_rel[i], triple_string(gdoc, g_rows[i], g_rel[i], profile, table=True)) for i in remaining]
        wrong += [(s_rel[j], triple_string(sdoc, s_rows[j], s_rel[j], profile, table=True)) for j in wrong_here]
    s = f"\n\nNot covered Triples:{len(not_covered)}\n" + _sorted_rows(not_covered)
    s += "\n\n" + f"Wrong Triples:{len(wrong)}\n" + _sorted_rows(wrong)
    return s
