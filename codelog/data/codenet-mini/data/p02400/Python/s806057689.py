R = eval(raw_input())  # output
print "%.6f %.6f"%(22/7*R*R, 2*22/7*R)
