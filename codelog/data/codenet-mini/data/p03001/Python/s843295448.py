def main():
  # edge case
  W,H,X,Y = map(int,input().split())
  print("{:.6f} {}".format(W*H/2,int(X==W/2 or Y==H/2)))


main()
