// The screen while a game is open: kept awake where the browser can (Wake Lock API).
