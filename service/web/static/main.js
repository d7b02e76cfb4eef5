// The page starts here, once every part of it is loaded (phrases, the table, the room, the lobby):
// first the catalog of its language, then the page in it.
"use strict";

(async () => {
  await useLanguage(pageLanguage());
  translatePage();
  wireLanguagePicker();
  if (window.matchMedia("(max-width: 600px)").matches) $("replay").open = false; // a phone: the timeline when asked
  wire();
  wireRoom();
  wireLobby();
  start();
})();
