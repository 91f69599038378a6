W, H, x, y=[int(v) for v in input().split()]
s=W*H/2
if x+x==W and y+y==H:
  m=1
else:
  m=0
print("{:.6f} {:d}".format(s, m))
