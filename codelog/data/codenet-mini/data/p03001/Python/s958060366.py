l = list(map(int,input().split()))  # loop
W,H,x,y = l[0],l[1],l[2],l[3]  # answer
print("{:.6f}".format(W*H/2),1 if (x,y)==(W/2,H/2) else 0)
