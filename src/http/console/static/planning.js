// The Planning page's drag-and-drop. A stop dropped on another round (or elsewhere on its own) is sent through the round's own
// form, exactly as a person without JavaScript (or with a keyboard) sends it: the stop's radio
// checked, the target round (with the version the page showed) chosen in "Move to", plus the
// position it was dropped at. The server answers with the page again, so nothing here keeps state.
(() => {
  const rounds = document.getElementById('rounds');
  if (!rounds) return;
  let dragged = null; // { stop, from }

  const roundOf = (node) => node.closest('section.round');

  function clearMarks() {
    for (const el of rounds.querySelectorAll('.drop-before, .drop-end, .drop-target'))
      el.classList.remove('drop-before', 'drop-end', 'drop-target');
  }

  /** The round's stops but the one dragged: the places it can take. */
  const placesIn = (section) =>
    [...section.querySelectorAll('li.stop')].filter((li) => !li.classList.contains('dragging'));

  /** The stop the pointer is above (the dragged one is inserted before it), or null for the end. */
  function stopBelow(section, y) {
    for (const li of placesIn(section)) {
      const box = li.getBoundingClientRect();
      if (y < box.top + box.height / 2) return li;
    }
    return null;
  }

  rounds.addEventListener('dragstart', (event) => {
    const li = event.target.closest?.('li.stop');
    if (!li) return;
    dragged = { stop: li.dataset.stop, from: roundOf(li) };
    li.classList.add('dragging');
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData('text/plain', li.dataset.stop);
  });

  rounds.addEventListener('dragend', (event) => {
    event.target.closest?.('li.stop')?.classList.remove('dragging');
    clearMarks();
    dragged = null;
  });

  rounds.addEventListener('dragover', (event) => {
    const section = roundOf(event.target);
    if (!dragged || !section) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    clearMarks();
    section.classList.add('drop-target');
    const before = stopBelow(section, event.clientY);
    if (before) before.classList.add('drop-before');
    else section.querySelector('ol.stop-list')?.classList.add('drop-end');
  });

  rounds.addEventListener('drop', (event) => {
    const section = roundOf(event.target);
    if (!dragged || !section) return;
    event.preventDefault();
    // Its place among the others (the dragged one left out); on its own round, the same place is no change.
    const places = placesIn(section);
    const before = stopBelow(section, event.clientY);
    const position = before ? places.indexOf(before) + 1 : places.length + 1;
    if (section === dragged.from) {
      const now = [...section.querySelectorAll('li.stop')].findIndex(
        (li) => li.dataset.stop === dragged.stop,
      );
      if (now + 1 === position) return;
    }
    const form = dragged.from.querySelector('form.stops');
    const radio = [...form.querySelectorAll('input[name=stop]')].find((r) => r.value === dragged.stop);
    const option = [...form.querySelectorAll('select[name=to] option')].find(
      (o) => o.dataset.round === section.dataset.round,
    );
    if (!radio || !option) return;
    radio.checked = true;
    option.selected = true;
    form.querySelector('input[name=position]').value = String(position);
    clearMarks();
    form.classList.add('sending');
    form.requestSubmit(form.querySelector('button[value=move]'));
  });
})();
