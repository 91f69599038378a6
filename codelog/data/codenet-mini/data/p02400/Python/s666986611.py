ii = float(input().split())
bb = 3.141592653589793
print ("%.6f %.6f" % (bb * ii * ii, 2 * bb * ii))

