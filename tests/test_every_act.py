"""An incident with two disputed acts is ruled on act by act, in hand order, by every route: rule_on,
batch and --jsonl, the service's rule and consult endpoints and its log, and the podium's log page.

The hand: no-limit $5/$10, seat 1 bets $100 on the flop. Seat 2 says "call" and puts out $25, then
seat 3 says "call" and puts out $40. Each short call is a call (RRP NL rule 9, TDA 2024 rule 51-A):
seat 2 owes $75, seat 3 owes $60. The acts are listed out of hand order on purpose.
"""
from __future__ import annotations

import io
import json

import yaml
from service_support import count_entries, login, overchip

TWO_ACTS = """\
incident: undercalls
game: {variant: holdem, structure: no-limit, blinds: [5, 10]}
button: 4
players: {1: 500, 2: 500, 3: 500, 4: 500}
streets:
  - street: preflop
    actions: [{seat: 3, action: call}, {seat: 4, action: call}, {seat: 1, action: call}, {seat: 2, action: check}]
  - street: flop
    actions: [{seat: 1, action: bet, to: 100}, {seat: 2, action: call}, {seat: 3, action: call}]
disputed:
  - {seat: 3, said: call, chips: [40], at: {street: flop, after: 2}}
  - {seat: 2, said: call, chips: [25], at: {street: flop, after: 1}}
"""
NAMES = ["undercalls, act 1 of 2 (seat 2)", "undercalls, act 2 of 2 (seat 3)"]
SHORT_CALL = "misdeclared-calls.short-call-made-good"


def two_acts() -> dict:
    return yaml.safe_load(TWO_ACTS)


def _acts(report: dict) -> list[dict]:
    return [report, *report.get("more_acts", [])]


def _owed(report: dict) -> list:
    return [(a["incident"], a["rulings"][0]["rule"], a["rulings"][0]["effects"]) for a in _acts(report)]


EXPECTED = [(NAMES[0], SHORT_CALL, {"wager_to": 100, "owed": 75}), (NAMES[1], SHORT_CALL, {"wager_to": 100, "owed": 60})]


# ---------------------------------------------------------------- in process

def test_rule_on_rules_every_act_and_one_act_incidents_are_unchanged(tmp_path):
    from rulings.ruling import books
    from rulings.incident import each_act, load_incident
    from rulings.report.render import report_json, report_text
    from rulings.ruling.decide import rule_on
    book, engine = books.load()
    path = tmp_path / "undercalls.yaml"
    path.write_text(TWO_ACTS)
    incident = load_incident(path, book)
    report = rule_on(incident, book, engine)
    assert [(r.incident, r.rulings[0].effects) for r in [report, *report.more_acts]] == [
        (NAMES[0], {"wager_to": 100_00, "owed": 75_00}), (NAMES[1], {"wager_to": 100_00, "owed": 60_00})]
    assert _owed(report_json(report)) == EXPECTED
    text = report_text(report)
    assert text.index(NAMES[0]) < text.index("he adds $75") < text.index(NAMES[1]) < text.index("he adds $60")
    # an incident seen at one act (each_act, as `rulings rule FILE` prints them) is ruled on that act alone
    alone = [rule_on(one, book, engine) for one in each_act(incident)]
    assert [(r.incident, r.rulings[0].effects["owed"], r.more_acts) for r in alone] == [
        (NAMES[0], 75_00, []), (NAMES[1], 60_00, [])]
    # one act: one report, no more_acts key in its JSON
    single = tmp_path / "overchip.yaml"
    single.write_text(yaml.safe_dump(overchip()))
    one = rule_on(load_incident(single, book), book, engine)
    assert one.more_acts == [] and "more_acts" not in report_json(one)
    assert one.rulings[0].effects == {"wager_to": 80_00, "returned": 420_00}


def test_jsonl_and_several_files_carry_every_act(tmp_path):
    from rulings.commands import batch
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps(two_acts()) + "\n" + json.dumps(overchip()) + "\n")
    out = io.StringIO()
    assert batch.rule_jsonl(str(src), None, 1, out) == 0
    first, second = [json.loads(line) for line in out.getvalue().splitlines()]
    assert _owed(first) == EXPECTED
    assert "more_acts" not in second and second["rulings"][0]["effects"] == {"wager_to": 80, "returned": 420}
    path = tmp_path / "undercalls.yaml"
    path.write_text(TWO_ACTS)
    out = io.StringIO()
    assert batch.rule_files([str(path)], None, "json", out) == 0
    assert _owed(json.loads(out.getvalue())) == EXPECTED
    out = io.StringIO()
    assert batch.rule_files([str(path)], None, "text", out) == 0
    assert out.getvalue().count("Incident undercalls, act ") == 2 and "he adds $60" in out.getvalue()


def test_rulings_ask_asks_each_act_and_writes_the_answer_into_that_act(tmp_path):
    from rulings.commands.ask import run
    src = tmp_path / "undercalls.yaml"
    src.write_text(TWO_ACTS)
    out = io.StringIO()

    # yes to act 2's question whether the caller misunderstood the bet; every other question skipped (no raise
    # was made, so "did he miss the raise?" is asked of neither act)
    def read(prompt: str) -> str:
        last = out.getvalue().rsplit("QUESTION", 1)[-1]
        assert "the raise" not in last
        return "1" if "misunderstood" in last and "(act 2)" in last else "s"
    saved = tmp_path / "done.yaml"
    assert run(str(src), None, str(saved), read=read, out=out) == 0
    text = out.getvalue()
    assert "(act 1)" in text and "(act 2)" in text
    final = text.rsplit("Incident ", 2)
    assert "he adds $75" in final[1] and "seat 3" in final[2] and "he adds $60" not in final[2]
    done = yaml.safe_load(saved.read_text())
    assert done["disputed"][0] == {**two_acts()["disputed"][0], "misunderstood": True}   # act 2: seat 3
    assert done["disputed"][1] == two_acts()["disputed"][1]


# ---------------------------------------------------------------- the service


def test_the_service_rules_and_records_every_act_in_one_entry(client, svc):
    floor = login(client, "fiona")
    before = count_entries(svc)
    r = client.post("/api/rule", json={"incident": two_acts(), "table": "5"}, headers=floor)
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["outcome"] == "ruled" and _owed(out["report"]) == EXPECTED
    assert [a["outcome"] for a in _acts(out["report"])] == ["ruled", "ruled"]
    assert count_entries(svc) == before + 1                       # one entry for the request, holding both acts
    entry = client.get(f"/api/log/{out['entry']['id']}", headers=floor).json()
    assert _owed(entry["report"]) == EXPECTED and entry["outcome"] == "ruled"
    assert entry["rules"] == [SHORT_CALL] and "TDA-2024-51A" in entry["citations"]
    found = client.get("/api/log?table=5&citation=TDA-2024-51A", headers=floor).json()
    assert [e["id"] for e in found["entries"]] == [out["entry"]["id"]]
    csv_text = client.get("/api/log/export?format=csv&table=5", headers=floor).text
    assert "he adds $75" in csv_text and "he adds $60" in csv_text
    # the podium's page for the entry shows both acts, each with its numbers
    from rulings.service.store.auth import COOKIE
    client.cookies.set(COOKIE, floor["Authorization"].split()[1])
    page = client.get(f"/podium/log/{out['entry']['id']}").text
    client.cookies.clear()
    assert page.index(NAMES[0]) < page.index("$75") < page.index(NAMES[1]) < page.index("$60")


def test_a_consultation_asks_the_questions_of_every_act(client, svc):
    floor = login(client, "fiona")
    step = client.post("/api/consult", json={"incident": two_acts(), "table": "5"}, headers=floor).json()
    assert _owed(step["report"]) == EXPECTED
    keys = {q["key"]: q for q in step["questions"]}
    # did the caller misunderstand the bet? asked of each act, written into that act; no raise was made, so
    # "did he miss the raise?" is asked of neither
    assert not [k for k in keys if k.startswith("unaware_of_raise")]
    assert keys["misunderstood@1"]["act"] == 1 and keys["misunderstood@2"]["act"] == 2
    assert keys["misunderstood@1"]["field"] == "disputed.1.misunderstood"   # act 1 is listed second
    leads = {v["value"]: [x["ruling"] for x in v["leads_to"]] for v in keys["misunderstood@2"]["values"]}
    assert leads == {True: ["call-may-be-withdrawn"], False: ["short-call-completed"]}
    cid = step["consultation"]["id"]
    answers = {"misunderstood@2": True}
    after = client.post("/api/consult", json={"incident": two_acts(), "answers": answers, "consultation": cid},
                        headers=floor).json()
    first, second = _acts(after["report"])
    assert first["rulings"][0]["effects"] == {"wager_to": 100, "owed": 75}          # act 1 unchanged
    assert second["rulings"][0]["rule"] == "misdeclared-calls.gross-misunderstanding"  # RRP NL rule 10
    assert second["rulings"][0]["effects"] == {"returned": 40}                      # his $40 go back
    assert "misunderstood@2" not in [q["key"] for q in after["questions"]]
    assert "misunderstood@1" in [q["key"] for q in after["questions"]]
    recorded = client.post("/api/rule", json={"incident": two_acts(), "answers": answers, "consultation": cid},
                           headers=floor).json()
    entry = client.get(f"/api/log/{recorded['entry']['id']}", headers=floor).json()
    assert entry["answers"] == [{"fact": "misunderstood", "question": keys["misunderstood@2"]["question"],
                                 "answer": True, "act": 2}]
    assert set(entry["rules"]) == {SHORT_CALL, "misdeclared-calls.gross-misunderstanding"}
    trail = entry["trail"]
    assert [t["step"] for t in trail] == [1, 2]
    assert trail[1]["answered"] == entry["answers"]
    assert {"fact": "misunderstood", "act": 1} in [{k: q.get(k) for k in ("fact", "act")}
                                                       for q in trail[0]["questions"]]
    # an answer must say which act it is about, and name one that exists; nothing is recorded
    count = count_entries(svc)
    for bad, hint in (({"misunderstood": True}, "misunderstood@1 or misunderstood@2"),
                      ({"misunderstood@3": True}, "acts 1 to 2, in hand order")):
        r = client.post("/api/rule", json={"incident": two_acts(), "answers": bad}, headers=floor)
        assert r.status_code == 422 and r.json()["error"]["code"] == "answer"
        assert hint in r.json()["error"]["problems"][0]["hint"]
    assert count_entries(svc) == count
