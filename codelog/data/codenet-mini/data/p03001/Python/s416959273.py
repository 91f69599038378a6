def main():
    # print answer
    W,H,x,y = map(float,input().split())
    print (W * H / 2,x * 2 == W and y * 2 == H)


main()
