import math

seq = input()
print "%.6f" % (math.pi * seq * seq),"%.6f" % (2 * math.pi * seq)
