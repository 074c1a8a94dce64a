"""The review of a deal, "where the game was lost" (no pygame here).

`story` turns a deal into what one seat saw of it (from the match's record on this
device, or from the server's updates online); `analysis` asks Hard's search, from the
seat's information only, what each of its decisions cost; `background` runs that
analysis in another process, with progress and a way to stop it, so the table keeps its
frame rate. The pygame screen is `game.client.scenes.review`.
"""
