print("broadcast benchmark server: not built yet")
