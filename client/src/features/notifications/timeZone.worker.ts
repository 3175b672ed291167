// Answers the browser's IANA zone from a thread of its own: the first Intl.DateTimeFormat of a page
// loads the locale's date data, which took about 100 ms of the main thread on Lighthouse's mid phone.
postMessage(Intl.DateTimeFormat().resolvedOptions().timeZone);
