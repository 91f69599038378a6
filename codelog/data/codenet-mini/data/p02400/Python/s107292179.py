c=float(raw_input().strip())
print "%.6f %.6f" % (c * c * 22 / 7, 2 * c * 22 / 7)
