import ParleyServer
print("parley \(ParleyVersion.string)")
