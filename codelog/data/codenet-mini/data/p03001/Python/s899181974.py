g, d, m, h = map(float, input().split())
print("%.6f %d"%(g*d/2, 1 if 2*m==g and 2*h==d else 0))
