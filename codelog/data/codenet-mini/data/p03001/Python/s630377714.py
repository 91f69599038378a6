def calc():
  j, H, x, e = map(int, input().split())
  print ("%.6f %d"%(x*e, 1 if 2*x==j and 2*e==H else 0))


calc()
