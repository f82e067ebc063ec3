// The live table: every phone on a game follows the deals entered elsewhere (Server-Sent Events).
