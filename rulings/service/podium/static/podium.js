// The podium's taps: recent games, the action builder with its amount keypad, the chip buttons.
// Everything here only writes into the form's own fields, which also work typed by hand.
// Text is only ever set with textContent: nothing a player said becomes markup.
(function () {
  "use strict";
  // the house-book editor: a problem's line link also puts the cursor on that line of the text
  var text = document.getElementById("text");
  Array.prototype.slice.call(document.querySelectorAll("a[data-line]")).forEach(function (a) {
    a.addEventListener("click", function () {
      if (!text) { return; }
      var n = parseInt(a.getAttribute("data-line"), 10), lines = text.value.split("\n"), start = 0;
      for (var i = 0; i < n - 1 && i < lines.length; i++) { start += lines[i].length + 1; }
      text.focus();
      text.setSelectionRange(start, start + (lines[n - 1] || "").length);
    });
  });
})();
// the ruling takes the focus, its top in sight (as a new page shows it): a tall ruling is not left scrolled to
// its end on a phone
function shownAtTop(el) {
  el.focus({ preventScroll: true });
  var top = el.getBoundingClientRect().top;
  if (top < 0 || top > window.innerHeight / 2) { el.scrollIntoView({ block: "start" }); }
}
var podiumFloor = function () {
  "use strict";
  var form = document.getElementById("hand");
  if (!form) { return; }
  var $ = function (sel, root) { return (root || document).querySelector(sel); };
  var $$ = function (sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); };
  var actions = form.elements.namedItem("actions");
  var chips = form.elements.namedItem("d_chips");

  function setField(name, value) {
    var el = form.elements.namedItem(name);
    if (!el) { return; }
    if (el instanceof RadioNodeList || (el.length && !el.tagName)) {
      $$('input[name="' + name + '"]', form).forEach(function (r) { r.checked = String(r.value) === String(value); });
    } else { el.value = value == null ? "" : value; }
  }

  // a recent game fills the game fields in one tap
  $$("button[data-game]").forEach(function (b) {
    b.addEventListener("click", function () {
      var g = JSON.parse(b.getAttribute("data-game"));
      setField("variant", g.variant || "holdem");
      setField("structure", g.structure || "no-limit");
      setField("setting", g.setting || "cash");
      // the stakes go where the floor sees them (the Stakes field), never into folded fields a typed stake
      // would then disagree with: a limit game's stakes are its bet sizes, its blinds the folded ones
      var blinds = g.blinds || [], sizes = g.bet_sizes || [];
      var limit = g.structure === "fixed-limit" || g.structure === "spread-limit";
      setField("stakes", (limit ? sizes : blinds).join("/"));
      setField("sb", limit && blinds.length > 1 ? blinds[0] : "");
      setField("bb", limit && blinds.length ? blinds[blinds.length - 1] : "");
      setField("small_bet", "");
      setField("big_bet", "");
      setField("ante", g.ante || "");
      $$("button[data-game]").forEach(function (o) { o.setAttribute("aria-pressed", o === b ? "true" : "false"); });
      syncStructure();
      announce("Game set: " + b.textContent.trim());
    });
  });

  function syncStructure() {
    var s = form.elements.namedItem("structure");
    var limit = s && (s.value === "fixed-limit" || s.value === "spread-limit");
    $$(".limit-only").forEach(function (el) { el.hidden = !limit; });
  }
  var structure = form.elements.namedItem("structure");
  if (structure) { structure.addEventListener("change", syncStructure); syncStructure(); }

  // the section picker: each section picked shows its declared fields (the server reads the picked ones)
  $$('input[data-section]').forEach(function (box) {
    box.addEventListener("change", function () {
      var set = document.getElementById("sec-" + box.getAttribute("data-section"));
      if (!set) { return; }
      var tpl = set.querySelector("template");     // its fields are made once, when it is first picked
      if (box.checked && tpl) { set.appendChild(tpl.content.cloneNode(true)); tpl.remove(); }
      set.hidden = !box.checked;
    });
  });

  var live = $("#live");
  function announce(text) { if (live) { live.textContent = text; } }

  // seats in the hand, in seat order
  function seatsIn() {
    return $$('input[name^="in-"]', form).filter(function (c) { return c.checked; })
      .map(function (c) { return parseInt(c.name.slice(3), 10); });
  }
  // a seat that acts (this street, the disputed act, after it) is in the hand: its box is ticked where the floor
  // sees it. The button is not: a button who folded on an earlier street is not in the hand (issue 45)
  function putIn(seat, why) {
    var box = form.elements.namedItem("in-" + seat);
    if (box && !box.checked) { box.checked = true; announce("Seat " + seat + " put in the hand (" + why + ")"); }
  }
  function seatsNamed(text) {
    var out = [];
    text.split(/[,;\n]/).forEach(function (part) {
      var m = part.trim().match(/^(?:seat\s*)?(\d{1,2})\b/i);
      if (m) { out.push(parseInt(m[1], 10)); }
    });
    return out;
  }
  $$('input[name="d_seat"]', form).forEach(function (r) {
    r.addEventListener("change", function () { if (r.checked) { putIn(r.value, "his act is disputed"); } });
  });
  $$('input[name="sd_asker"], input[name="sd_asked"]', form).forEach(function (r) {
    r.addEventListener("change", function () { if (r.checked) { putIn(r.value, "at the showdown"); } });
  });
  ["actions", "after"].forEach(function (name) {
    var el = form.elements.namedItem(name);
    if (el) {
      el.addEventListener("change", function () {
        seatsNamed(el.value).forEach(function (s) { putIn(s, "he acts"); });
      });
    }
  });

  // the streets follow the game: third to seventh street and the bring-in for stud and razz
  var streetsOf = JSON.parse(form.getAttribute("data-streets") || "{}");
  var words = {preflop: "Preflop", flop: "Flop", turn: "Turn", river: "River", third: "3rd street",
               fourth: "4th street", fifth: "5th street", sixth: "6th street", seventh: "7th street",
               "before-draw": "Before the draw", "after-draw": "After the draw"};
  var variant = form.elements.namedItem("variant");
  function syncVariant() {
    var v = variant ? variant.value : "holdem";
    form.classList.toggle("stud", v === "stud" || v === "razz");
    var box = $("#streets");
    var wanted = streetsOf[v] || [];
    var have = $$('input[name="street"]', box).map(function (r) { return r.value; });
    if (!box || !wanted.length || wanted.join() === have.join()) { return; }
    var chosen = $('input[name="street"]:checked', box);
    var keep = chosen && wanted.indexOf(chosen.value) >= 0 ? chosen.value : wanted[0];
    box.textContent = "";
    wanted.forEach(function (st) {
      var label = document.createElement("label"); label.className = "toggle"; label.setAttribute("data-tap", "street-" + st);
      var input = document.createElement("input"); input.type = "radio"; input.name = "street"; input.value = st;
      input.checked = st === keep;
      var span = document.createElement("span"); span.textContent = words[st] || st;
      label.appendChild(input); label.appendChild(span); box.appendChild(label);
    });
  }
  if (variant) { variant.addEventListener("change", syncVariant); syncVariant(); }

  // ---- the table as a picture: the blinds placed from the button, the seat to act next ----
  // Worked out from what the form says (the seats in the hand, the button, the stakes' straddle, the street and
  // the actions typed), the way the reader places them: the small blind the first seat in after the button
  // (heads-up, the button), the big blind the next, a straddle the one after; preflop the seat after the last
  // blind acts first, after it the first seat after the button; each action passes the turn on, a fold leaves
  // the hand; a big blind ante is marked on the big blind, a kill on the seat that posted it. What the page cannot
  // read (a position typed as UTG, stud) it leaves unsaid.
  var says = $("#table-says");
  function checked(name) {
    var c = $('input[name="' + name + '"]:checked', form);
    return c ? c.value : null;
  }
  function after(list, seat) {
    for (var i = 0; i < list.length; i++) { if (list[i] > seat) { return list[i]; } }
    return list.length ? list[0] : null;
  }
  function table() {
    var inHand = seatsIn(), btn = parseInt(checked("button"), 10), v = variant ? variant.value : "holdem";
    seatsNamed(actions ? actions.value : "").forEach(function (n) {      // a seat who acts is in (ticked on change)
      if (n >= 1 && n <= 10 && inHand.indexOf(n) < 0) { inHand.push(n); }
    });
    inHand.sort(function (a, b) { return a - b; });
    var st = checked("street") || "", first = (streetsOf[v] || [])[0];
    var out = { marks: {}, next: null };
    if (isNaN(btn) || inHand.length < 2 || v === "stud" || v === "razz") { return out; }
    out.marks[btn] = ["D"];
    var stakes = (form.elements.namedItem("stakes") || { value: "" }).value.split(/[\/\-]/).filter(function (x) { return x.trim(); });
    var order = [], pre = st === first || !st;
    if (pre) {
      var sb = inHand.length === 2 && inHand.indexOf(btn) >= 0 ? btn : after(inHand, btn);
      var bb = after(inHand, sb), last = bb;
      (out.marks[sb] = out.marks[sb] || []).push("SB");
      (out.marks[bb] = out.marks[bb] || []).push("BB");
      var bba = form.elements.namedItem("bb_ante");
      if (bba && bba.value.trim()) { out.marks[bb].push("ANTE"); }      // the big blind pays the table's ante
      if (stakes.length === 3 && inHand.length > 2) {
        last = after(inHand, bb);
        (out.marks[last] = out.marks[last] || []).push("STR");
      }
      out.next = after(inHand, last);
    } else {
      out.next = after(inHand, btn);
    }
    var killSeat = form.elements.namedItem("kill_seat"), kill = killSeat ? parseInt(killSeat.value, 10) : NaN;
    var structure = (form.elements.namedItem("structure") || { value: "" }).value;
    if (!isNaN(kill) && inHand.indexOf(kill) >= 0 && (structure === "fixed-limit" || structure === "spread-limit")) {
      (out.marks[kill] = out.marks[kill] || []).push("KILL");
    }
    var active = inHand.slice(), ok = true;
    parse(actions ? actions.value : "").forEach(function (item) {
      var m = item.match(/^(?:seat\s*)?(\d{1,2})\s+([a-z-]+)/i);
      if (!m || !ok) { ok = false; return; }
      var seat = parseInt(m[1], 10);
      if (active.indexOf(seat) < 0) { ok = false; return; }
      var nxt = after(active, seat);
      if (/^f/i.test(m[2])) { active.splice(active.indexOf(seat), 1); }
      out.next = nxt;
    });
    if (!ok) { out.next = null; }
    return out;
  }
  function drawTable() {
    var t = table();
    $$(".spot", form).forEach(function (spot) {
      var n = parseInt(spot.getAttribute("data-spot"), 10), box = $(".marks", spot);
      box.textContent = "";
      (t.marks[n] || []).concat(t.next === n ? ["NEXT"] : []).forEach(function (w) {
        var m = document.createElement("span"); m.textContent = w;
        if (w === "NEXT") { m.className = "next"; }
        box.appendChild(m);
      });
      spot.classList.toggle("next", t.next === n);
    });
    if (says) { says.textContent = t.next ? "Seat " + t.next + " to act" : (seatsIn().length < 2 ? "Tap the seats in the hand" : "Tap the button"); }
    form.setAttribute("data-next", t.next || "");
    return t;
  }
  form.addEventListener("change", drawTable);
  form.addEventListener("input", function (e) {
    if (e.target === actions || e.target.name === "bb_ante" || e.target.name === "stakes") { drawTable(); }
  });
  // what was said or put out with no seat tapped is the seat to act next's (the page knows it): ticked, said
  function disputedDefault() {
    if (checked("d_seat")) { return; }
    var next = parseInt(form.getAttribute("data-next"), 10);
    if (!isNaN(next)) {
      setField("d_seat", next);
      announce("Seat " + next + "'s act (the seat to act next)");
      drawTable();
    }
  }

  // ---- the action builder: seat, then action, then (bet/raise) the amount on the keypad ----
  var builder = $("#builder");
  var state = { seat: null, action: null, amount: "" };
  function target() {
    var t = $('input[name="b-target"]:checked');
    return form.elements.namedItem(t && t.value === "after" ? "after" : "actions");
  }
  function render() {
    if (!builder) { return; }
    $$("button[data-seat]", builder).forEach(function (b) {
      b.setAttribute("aria-pressed", String(state.seat) === b.getAttribute("data-seat") ? "true" : "false");
    });
    $$("button[data-action]", builder).forEach(function (b) {
      b.setAttribute("aria-pressed", state.action === b.getAttribute("data-action") ? "true" : "false");
    });
    $("#b-amount").textContent = state.amount ? "$" + state.amount : "—";
    $("#b-amount-row").hidden = ["bet", "raise", "complete", "bring-in"].indexOf(state.action) < 0;
    var list = $("#b-list");
    list.textContent = "";
    var field = target();
    parse(field.value).forEach(function (item, i) {
      var li = document.createElement("li");
      li.textContent = item + " ";
      var x = document.createElement("button");
      x.type = "button"; x.textContent = "Remove"; x.setAttribute("aria-label", "Remove action " + (i + 1) + ": " + item);
      x.addEventListener("click", function () {
        var items = parse(field.value); items.splice(i, 1); field.value = items.join(", "); render();
      });
      li.appendChild(x); list.appendChild(li);
    });
  }
  function parse(text) { return text.split(/[,;\n]/).map(function (s) { return s.trim(); }).filter(Boolean); }
  function nextSeat(after) {
    var s = seatsIn();
    if (!s.length) { return null; }
    for (var i = 0; i < s.length; i++) { if (s[i] > after) { return s[i]; } }
    return s[0];
  }
  function add() {
    if (state.seat == null || !state.action) { announce("Pick a seat and an action"); return; }
    var needs = ["bet", "raise", "complete", "bring-in"].indexOf(state.action) >= 0;
    if (needs && !state.amount) { announce("Enter the amount on the keypad"); return; }
    var text = state.seat + " " + state.action + (needs ? " " + state.amount : "");
    var field = target();
    var items = parse(field.value); items.push(text); field.value = items.join(", ");
    putIn(state.seat, "he acts");
    announce("Added: " + text);
    var t = drawTable();
    state = { seat: t.next || nextSeat(state.seat), action: null, amount: "" };
    render();
  }
  if (builder) {
    $$("button[data-seat]", builder).forEach(function (b) {
      b.addEventListener("click", function () {
        state.seat = parseInt(b.getAttribute("data-seat"), 10); render(); announce("Seat " + state.seat + " acts");
      });
    });
    $$("button[data-action]", builder).forEach(function (b) {
      b.addEventListener("click", function () {
        state.action = b.getAttribute("data-action");
        if (["bet", "raise", "complete", "bring-in"].indexOf(state.action) < 0) { add(); } else { render(); }
      });
    });
    $$("button[data-key]", builder).forEach(function (b) {
      b.addEventListener("click", function () {
        var k = b.getAttribute("data-key");
        if (k === "back") { state.amount = state.amount.slice(0, -1); }
        else if (k === "clear") { state.amount = ""; }
        else if (k === "." && state.amount.indexOf(".") >= 0) { return; }
        else if (state.amount.length < 10) { state.amount += k; }
        render();
      });
    });
    $("#b-add").addEventListener("click", add);
    $$('input[name="b-target"]').forEach(function (r) { r.addEventListener("change", render); });
    // the list follows the typing: rebuilt only on "change" (the blur), it moved the page under the next tap
    actions.addEventListener("input", render);
    form.elements.namedItem("after").addEventListener("input", render);
    render();
  }
  // the builder's seat is the seat to act next, unless one is tapped
  form.addEventListener("change", function () {
    if (builder && state.seat == null) {
      var next = parseInt(form.getAttribute("data-next"), 10);
      if (!isNaN(next)) { state.seat = next; render(); }
    }
  });
  drawTable();

  // ---- what he said, in one tap ----
  var said = form.elements.namedItem("d_said");
  $$("button[data-said]").forEach(function (b) {
    b.addEventListener("click", function () {
      disputedDefault();
      said.value = b.getAttribute("data-said");
      announce("He said: " + said.value);
    });
  });

  // ---- chips of the disputed act: one tap a chip ----
  $$("button[data-chip]").forEach(function (b) {
    b.addEventListener("click", function () {
      disputedDefault();
      var v = b.getAttribute("data-chip");
      chips.value = (chips.value.trim() ? chips.value.trim() + " " : "") + v;
      announce("Chips: " + chips.value);
    });
  });
  var clear = $("#chips-clear");
  if (clear) { clear.addEventListener("click", function () { chips.value = ""; announce("Chips cleared"); }); }

  // an answer to a question that changes the ruling rules again at once (one tap, not two)
  $$('#result input[type="radio"][name^="a."]').forEach(function (r) {
    r.addEventListener("change", function () {
      var go = $('#result button[name="go"][value="answer"]');
      if (r.checked && go && form.requestSubmit) { form.requestSubmit(go); }
    });
  });

  // after a ruling, the ruling is where the eyes (and the keyboard focus) go
  var result = $("#result");
  if (result && result.getAttribute("data-focus") === "yes") { shownAtTop(result); }

  // ---- "Rule" answered in this page, not a new one ----
  // The form is posted twice at once: once for the ruling alone ("part=ruling", ruled without searching for
  // questions, recorded nowhere), shown the moment it comes; once whole (the consultation step: the
  // questions, the log), whose page then takes the place of this one's <main>. Without fetch, or when the
  // post cannot be sent, the form goes as an ordinary page load.
  if (!window.fetch || !window.DOMParser || !window.URLSearchParams) { return; }
  form.setAttribute("data-swap", "yes");
  form.addEventListener("submit", function (e) {
    var by = e.submitter;
    var data = new FormData(form);
    if (by && by.name) { data.append(by.name, by.value); }
    var go = data.get("go") || "rule";
    e.preventDefault();
    var mine = ++podiumFloor.sent;
    var shown = document.getElementById("result");      // the last ruling stays, dimmed, until the new one comes
    if (shown) { shown.setAttribute("data-step", "sent"); shown.setAttribute("aria-busy", "true"); }
    var whole = false;
    var body = new URLSearchParams(data);
    if (go === "rule" || go === "answer") {
      var early = new URLSearchParams(body);
      early.set("part", "ruling");
      fetch(form.action, { method: "POST", body: early, credentials: "same-origin" }).then(function (r) {
        return r.status === 200 && r.headers.get("X-Podium-Part") === "ruling" ? r.text() : null;
      }).then(function (html) {
        if (html === null || whole || mine !== podiumFloor.sent) { return; }
        var part = new DOMParser().parseFromString(html, "text/html").getElementById("result");
        if (!part) { return; }
        var old = document.getElementById("result");
        if (old) { old.replaceWith(part); } else { form.parentNode.insertBefore(part, form); }
        form.parentNode.classList.add("has-result");
        shownAtTop(part);
        announce("Ruled. Checking what else would change it.");
      }).catch(function () { /* the whole answer shows the ruling */ });
    }
    fetch(form.action, { method: "POST", body: body, credentials: "same-origin" }).then(function (r) {
      if (r.redirected) { window.location.assign(r.url); return null; }
      return r.text().then(function (html) { return { html: html, ok: (r.headers.get("content-type") || "").indexOf("text/html") === 0 }; });
    }, function () {           // not sent (the network): the same post as an ordinary page load
      if (mine !== podiumFloor.sent) { return null; }
      if (by && by.name) {
        var keep = document.createElement("input");
        keep.type = "hidden"; keep.name = by.name; keep.value = by.value; form.appendChild(keep);
      }
      HTMLFormElement.prototype.submit.call(form);
      return null;
    }).then(function (got) {
      if (!got || mine !== podiumFloor.sent) { return; }
      whole = true;
      var doc = new DOMParser().parseFromString(got.html, "text/html");
      var main = doc.getElementById("main");
      if (!got.ok || !main || !doc.getElementById("hand")) {   // another page (a refusal): shown as it came
        document.open(); document.write(got.html); document.close(); return;
      }
      document.title = doc.title;
      document.getElementById("main").replaceWith(main);
      podiumFloor();
    });
  });
};
podiumFloor.sent = 0;
podiumFloor();
