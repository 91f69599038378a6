import sys

def main():
  W, H, X, Y = map(int, sys.stdin.readline().split())
  cx, cy = W/2, H/2
  print ("%.6f %d"%(W*H/2, cx==X and cy==Y))


if __name__=="__main__":
  main()
