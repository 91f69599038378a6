# ABC130 C - Rectangle Cutting
def main():
  # TODO
  W, H, x, y = map(int, open(0).read().split())
  s = W*H/2
  if x+x==W and y+y==H:
    m = 1
  else:
    m = 0
  print("{:.6f} {:d}".format(s, m))


if __name__=="__main__":
  main()
