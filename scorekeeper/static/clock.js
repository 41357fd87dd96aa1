/* Turn clock: from who starts (who_starts.js), whose turn it is in seating order,
   a big countdown, tap anywhere for the next player, pause; at zero a vibration, a beep and
   the penalty message. Everything lives in this page, so it keeps going offline. */
(() => {
  "use strict";
  const clock = document.getElementById("clock");
  if (!clock) return;
  const players = JSON.parse(clock.dataset.players);
  const marks = JSON.parse(clock.dataset.marks); // each seat's initials; its colour is .s1..s6
  const seconds = parseInt(clock.dataset.seconds, 10) || 0;
  const penalty = parseInt(clock.dataset.penaltyTiles, 10) || 0;
  const $ = (id) => document.getElementById(id);
  const startButton = $("clock-start");
  const whoStarts = $("who-starts");
  const nameOut = $("clock-player");
  const markOut = $("clock-mark");
  const timeOut = $("clock-time");
  const alertOut = $("clock-alert");
  const nextOut = $("clock-next");
  const pauseButton = $("clock-pause");
  const { t, tn, number } = window.ScorekeeperText;

  const mmss = (s) => `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
  let timeUp = t("clock_time_up", "Time! Put the table back as it was and take back the tiles you played.");
  if (penalty > 0) {
    timeUp = tn(
      "clock_time_up_penalty",
      "Time! Put the table back as it was, take back the tiles you played and draw %(count)s penalty tile.",
      "Time! Put the table back as it was, take back the tiles you played and draw %(count)s penalty tiles.",
      penalty,
      { count: number(penalty) },
    );
  }

  let starter = clock.dataset.starter === "" ? 0 : parseInt(clock.dataset.starter, 10);
  let seat = starter;
  let deadline = 0; // performance.now() when the turn ends, while running
  let left = seconds * 1000; // ms left, while paused
  let running = false;
  let expired = false;
  let ticker = null;
  let lock = null;
  let audio = null;
  let switchedAt = 0;

  /* ---- Who starts (who_starts.js, bundled before): the clock offers to start from them. ---- */
  const offerStart = () => {
    startButton.hidden = false;
    startButton.textContent = t("clock_start", "Start the clock: %(name)s first", { name: players[starter] });
  };
  document.addEventListener("scorekeeper:starter", (event) => {
    if (event.detail.seat === null) {
      startButton.hidden = true; // a tie: they draw again first
      return;
    }
    starter = event.detail.seat;
    offerStart();
    startButton.focus();
  });

  /* ---- The countdown. ---- */
  const msLeft = () => (running ? Math.max(0, deadline - performance.now()) : left);

  const beep = () => {
    if (!audio) return;
    try {
      const now = audio.currentTime;
      [0, 0.35, 0.7].forEach((at) => {
        const tone = audio.createOscillator();
        const gain = audio.createGain();
        tone.type = "square";
        tone.frequency.value = 880;
        gain.gain.setValueAtTime(0.0001, now + at);
        gain.gain.exponentialRampToValueAtTime(0.3, now + at + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.25);
        tone.connect(gain).connect(audio.destination);
        tone.start(now + at);
        tone.stop(now + at + 0.3);
      });
    } catch (error) {
      /* No sound on this phone: the message and the vibration still say it. */
    }
  };

  const render = () => {
    const remaining = msLeft();
    timeOut.textContent = mmss(Math.ceil(remaining / 1000));
    nameOut.textContent = t("clock_turn", "%(name)s's turn", { name: players[seat] });
    markOut.textContent = marks[seat];
    [markOut, clock].forEach((e) => {
      e.classList.remove("s1", "s2", "s3", "s4", "s5", "s6");
      e.classList.add(`s${seat + 1}`);
    });
    const next = { name: players[(seat + 1) % players.length] };
    nextOut.textContent = expired
      ? t("clock_tap_for_turn", "Tap anywhere for %(name)s's turn.", next)
      : t("clock_next", "Next: %(name)s · tap anywhere for the next player", next);
    clock.classList.toggle("paused", !running && !expired);
    clock.classList.toggle("expired", expired);
    clock.classList.toggle("hurry", running && remaining <= 10000);
    pauseButton.textContent = running ? t("clock_pause", "Pause") : t("clock_resume", "Resume");
    pauseButton.hidden = expired; // at zero only the next turn makes sense
  };

  const expire = () => {
    running = false;
    expired = true;
    left = 0;
    alertOut.textContent = timeUp;
    if (navigator.vibrate) navigator.vibrate([400, 150, 400, 150, 400]);
    beep();
    render();
  };

  const tick = () => {
    if (running && deadline - performance.now() <= 0) expire();
    else render();
  };

  const run = () => {
    deadline = performance.now() + left;
    running = true;
    clearInterval(ticker);
    ticker = setInterval(tick, 200);
    render();
  };

  const pause = () => {
    left = msLeft();
    running = false;
    clearInterval(ticker);
    render();
  };

  const nextPlayer = () => {
    seat = (seat + 1) % players.length;
    expired = false;
    alertOut.textContent = "";
    left = seconds * 1000;
    switchedAt = performance.now();
    run();
  };

  /* The screen stays awake while the clock is out (Wake Lock API, where the phone has it). */
  const keepAwake = async () => {
    if (!("wakeLock" in navigator) || lock || clock.hidden) return;
    try {
      lock = await navigator.wakeLock.request("screen");
      lock.addEventListener("release", () => {
        lock = null;
      });
    } catch (error) {
      lock = null; /* refused (battery saver, no permission): the clock still runs */
    }
  };
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") {
      keepAwake();
      tick();
    }
  });

  const start = () => {
    try {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (Context && !audio) audio = new Context(); // made in the tap, so it may play later
      if (audio && audio.state === "suspended") audio.resume();
    } catch (error) {
      audio = null;
    }
    seat = starter;
    expired = false;
    alertOut.textContent = "";
    left = seconds * 1000;
    switchedAt = performance.now();
    clock.hidden = false;
    if (whoStarts) whoStarts.hidden = true;
    startButton.hidden = true;
    document.body.classList.add("clock-on");
    keepAwake();
    run();
    $("clock-next-player").focus();
  };

  const stop = () => {
    running = false;
    clearInterval(ticker);
    clock.hidden = true;
    document.body.classList.remove("clock-on");
    if (whoStarts) whoStarts.hidden = false;
    offerStart();
    if (lock) lock.release().catch(() => {});
    lock = null;
    startButton.focus();
  };

  startButton.addEventListener("click", start);
  $("clock-stop").addEventListener("click", stop);
  pauseButton.addEventListener("click", () => (running ? pause() : run()));
  $("clock-next-player").addEventListener("click", nextPlayer);
  /* A tap anywhere on the clock (not on its buttons) passes the turn; a quick second tap
     within half a second is taken as the same tap, so nobody is skipped by accident. */
  clock.addEventListener("click", (event) => {
    if (event.target.closest("button")) return;
    if (performance.now() - switchedAt < 500) return;
    nextPlayer();
  });

  offerStart();
})();
