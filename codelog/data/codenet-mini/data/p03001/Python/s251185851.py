def run():
    arr, q, second, col=map(int, open(0).read().split())
    count=arr*q*0.5
    h=int(second==arr/2 or col==q/2)
    print(count, h)  # print answer


run()
