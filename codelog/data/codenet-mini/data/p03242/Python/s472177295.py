length = input()
data = ""
for nums in length:
    if nums == "1":

        data += "9"
    elif nums == "9":
        data += "1"
    else:
        data += nums

print(data)

