print("text replay benchmark: not built yet")
