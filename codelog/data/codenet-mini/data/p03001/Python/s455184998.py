area,digits,d,best = map(int,input().split())  # main
# ループ
print("{:.6f} {}".format(area*digits/2,1 if 2*d==area or 2*best==digits else 0))
