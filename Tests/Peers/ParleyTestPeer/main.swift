print("network test peer: not built yet")
