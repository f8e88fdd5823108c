print("text test peer: not built yet")
