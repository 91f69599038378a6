def main():
  l = list( map( int,input().split() ) )
  W,H,x,y = l[0],l[1],l[2],l[3]
  area = W * H / 2
  flag = 1 if x * 2 == W and y * 2 == H else 0
  print( "{:.6f} {}".format( area,flag ) )


main()
