# AtCoder Beginner Contest 130 - Rectangle Cutting
def helper():
  vals = list(map(int, input().split()))
  W, flag, out, g = vals[0], vals[1], vals[2], vals[3]
  tmp = W*flag/2
  if out+out==W and g+g==flag:
    top = 1

  else:
    top = 0
  print("{:.6f} {:d}".format(tmp, top))


if __name__=="__main__":
  helper()