import math
ret = input()
print "%.6f"%(math.pi*ret*ret), "%.6f"%(2*math.pi*ret)
