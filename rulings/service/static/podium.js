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
(function () {
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
      var blinds = g.blinds || [];
      setField("sb", blinds.length > 1 ? blinds[0] : "");
      setField("bb", blinds.length ? blinds[blinds.length - 1] : "");
      var sizes = g.bet_sizes || [];
      setField("small_bet", sizes[0] || "");
      setField("big_bet", sizes[1] || "");
      setField("ante", g.ante || "");
      setField("stakes", "");
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

  var live = $("#live");
  function announce(text) { if (live) { live.textContent = text; } }

  // seats in the hand, in seat order
  function seatsIn() {
    return $$('input[name^="in-"]', form).filter(function (c) { return c.checked; })
      .map(function (c) { return parseInt(c.name.slice(3), 10); });
  }

  // ---- the action builder: seat, then action, then (bet/raise) the amount on the keypad ----
  var builder = $("#builder");
  var state = { seat: null, action: null, amount: "" };
  function render() {
    if (!builder) { return; }
    var seatBox = $("#b-seats");
    var current = seatsIn();
    seatBox.textContent = "";
    current.forEach(function (s) {
      var b = document.createElement("button");
      b.type = "button"; b.textContent = "Seat " + s; b.setAttribute("data-seat", s);
      b.setAttribute("aria-pressed", state.seat === s ? "true" : "false");
      b.addEventListener("click", function () { state.seat = s; render(); announce("Seat " + s + " acts"); });
      seatBox.appendChild(b);
    });
    if (!current.length) {
      var p = document.createElement("span"); p.className = "hint";
      p.textContent = "Tap the seats in the hand first."; seatBox.appendChild(p);
    }
    $$("button[data-action]", builder).forEach(function (b) {
      b.setAttribute("aria-pressed", state.action === b.getAttribute("data-action") ? "true" : "false");
    });
    $("#b-amount").textContent = state.amount ? "$" + state.amount : "—";
    $("#b-amount-row").hidden = !(state.action === "bet" || state.action === "raise");
    var list = $("#b-list");
    list.textContent = "";
    parse(actions.value).forEach(function (item, i) {
      var li = document.createElement("li");
      li.textContent = item + " ";
      var x = document.createElement("button");
      x.type = "button"; x.textContent = "Remove"; x.setAttribute("aria-label", "Remove action " + (i + 1) + ": " + item);
      x.addEventListener("click", function () {
        var items = parse(actions.value); items.splice(i, 1); actions.value = items.join(", "); render();
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
    var needs = state.action === "bet" || state.action === "raise";
    if (needs && !state.amount) { announce("Enter the amount on the keypad"); return; }
    var text = state.seat + " " + state.action + (needs ? " " + state.amount : "");
    var items = parse(actions.value); items.push(text); actions.value = items.join(", ");
    announce("Added: " + text);
    state = { seat: nextSeat(state.seat), action: null, amount: "" };
    render();
  }
  if (builder) {
    $$("button[data-action]", builder).forEach(function (b) {
      b.addEventListener("click", function () {
        state.action = b.getAttribute("data-action");
        if (state.action !== "bet" && state.action !== "raise") { add(); } else { render(); }
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
    $$('input[name^="in-"]', form).forEach(function (c) { c.addEventListener("change", render); });
    // the list follows the typing: rebuilt only on "change" (the blur), it moved the page under the next tap
    actions.addEventListener("input", render);
    render();
  }

  // ---- chips of the disputed act: one tap a chip ----
  $$("button[data-chip]").forEach(function (b) {
    b.addEventListener("click", function () {
      var v = b.getAttribute("data-chip");
      chips.value = (chips.value.trim() ? chips.value.trim() + " " : "") + v;
      announce("Chips: " + chips.value);
    });
  });
  var clear = $("#chips-clear");
  if (clear) { clear.addEventListener("click", function () { chips.value = ""; announce("Chips cleared"); }); }

  // after a ruling, the ruling is where the eyes (and the keyboard focus) go
  var result = $("#result");
  if (result && result.getAttribute("data-focus") === "yes") { result.focus(); }
})();
