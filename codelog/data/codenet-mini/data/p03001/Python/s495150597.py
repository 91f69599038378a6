mn, o, digits, result = [int(word) for word in input().split()]
print("%.6f %d"%(mn*o*0.5, 0 if digits*2==mn and result*2==o else 1))

