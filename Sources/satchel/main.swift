print("satchel")
