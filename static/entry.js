// Deal entry: quick pickers for counts, the robber on one screen, corrections (see entry.css).
